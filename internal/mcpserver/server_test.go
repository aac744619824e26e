package mcpserver

import (
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// TestInputSchemaAllowsNull: every property of a tool's input accepts null
// (the argument not given), so an agent's {"index": null} never fails
// validation with an error naming Go's reflection.
func TestInputSchemaAllowsNull(t *testing.T) {
	s := inputSchema[GateExitInput]()
	r, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"index": nil, "identity": nil, "disposition": nil, "landed": nil, "as_of": nil}
	if err := r.Validate(in); err != nil {
		t.Errorf("null arguments rejected: %v", err)
	}
	if err := r.Validate(map[string]any{"index": 42, "identity": "x", "disposition": "promote"}); err == nil {
		t.Error("a number for a path was accepted")
	}
}

// TestOutputSchemaIsTheUnion: a tool's output schema admits each of its
// documents and nothing else.
func TestOutputSchemaIsTheUnion(t *testing.T) {
	type a struct {
		X int `json:"x"`
	}
	type b struct {
		Y string `json:"y"`
	}
	r, err := outputSchema(a{}, b{}).Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ok := range []map[string]any{{"x": 1.0}, {"y": "s"}} {
		if err := r.Validate(ok); err != nil {
			t.Errorf("%v rejected: %v", ok, err)
		}
	}
	if err := r.Validate(map[string]any{"z": true}); err == nil {
		t.Error("an object of neither shape was accepted")
	}
	var _ *jsonschema.Schema = outputSchema(a{})
}
