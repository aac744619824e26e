package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// decodeArgs checks a tool's raw arguments against its input schema and
// decodes them into v. The check is memcompact's own, not the schema
// library's, so that a wrong argument is named in plain words ("paths[0]
// is null; want a string") and never as Go's reflection sees it. Null at
// the top level counts as not given; null inside an array is an error.
func decodeArgs(s *jsonschema.Schema, raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(raw, &args); err != nil {
		return fmt.Errorf("the arguments are not a JSON object")
	}
	for _, name := range s.Required {
		if a, ok := args[name]; !ok || string(a) == "null" {
			return fmt.Errorf("argument %q is required", name)
		}
	}
	names := make([]string, 0, len(args))
	for name := range args {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p, ok := s.Properties[name]
		if !ok {
			return fmt.Errorf("unknown argument %q; the arguments are: %s", name, strings.Join(propertyNames(s), ", "))
		}
		dec := json.NewDecoder(bytes.NewReader(args[name]))
		dec.UseNumber()
		var val any
		if err := dec.Decode(&val); err != nil {
			return fmt.Errorf("argument %q is not valid JSON", name)
		}
		if err := checkValue(name, p, val); err != nil {
			return err
		}
		if val != nil {
			// An integer may be written 5.0 or 1e2 in JSON; Go's
			// decoder takes only 5, so each is given to it as such.
			norm, err := json.Marshal(wholeIntegers(p, val))
			if err != nil {
				return err
			}
			args[name] = norm
		}
	}
	// Drop the nulls (not given) and decode what is left.
	clean := map[string]json.RawMessage{}
	for name, a := range args {
		if string(bytes.TrimSpace(a)) != "null" {
			clean[name] = a
		}
	}
	b, err := json.Marshal(clean)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("the arguments do not fit the tool: %v", err)
	}
	return nil
}

func propertyNames(s *jsonschema.Schema) []string {
	var out []string
	for name := range s.Properties {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// checkValue checks val (as encoding/json decodes it) against the types s
// allows, and an array's items and an object's properties in turn.
func checkValue(path string, s *jsonschema.Schema, val any) error {
	if s == nil {
		return nil
	}
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	got := jsonType(val)
	if n, ok := val.(json.Number); ok && slices.Contains(types, "integer") && !typeAllowed(types, got, val) && isWhole(n) {
		return fmt.Errorf("%s is %s, too large for an integer here", path, n)
	}
	if len(types) > 0 && !typeAllowed(types, got, val) {
		want := make([]string, 0, len(types))
		for _, t := range types {
			if t != "null" {
				want = append(want, article(t))
			}
		}
		return fmt.Errorf("%s is %s; want %s", path, article(got), strings.Join(want, " or "))
	}
	if len(s.Enum) > 0 && got != "null" {
		ok := false
		for _, e := range s.Enum {
			if fmt.Sprint(e) == fmt.Sprint(val) {
				ok = true
			}
		}
		if !ok {
			return fmt.Errorf("%s is %v; want one of %v", path, val, s.Enum)
		}
	}
	switch x := val.(type) {
	case []any:
		for i, item := range x {
			if err := checkValue(fmt.Sprintf("%s[%d]", path, i), s.Items, item); err != nil {
				return err
			}
		}
	case map[string]any:
		for _, name := range s.Required {
			if _, ok := x[name]; !ok {
				return fmt.Errorf("%s.%s is required", path, name)
			}
		}
		for name, item := range x {
			p, ok := s.Properties[name]
			if !ok {
				if len(s.Properties) > 0 && s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil {
					return fmt.Errorf("%s has an unknown field %q", path, name)
				}
				continue
			}
			if err := checkValue(path+"."+name, p, item); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonType is the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "value"
}

func typeAllowed(types []string, got string, val any) bool {
	for _, t := range types {
		switch {
		case t == got:
			return true
		case t == "integer" && got == "number":
			if _, ok := asInteger(val.(json.Number)); ok {
				return true
			}
		case t == "number" && got == "integer":
			return true
		}
	}
	return false
}

// asInteger is n as an int64 when it is a whole number in range, however
// JSON spells it (5, 5.0, 1e2).
func asInteger(n json.Number) (int64, bool) {
	if i, err := n.Int64(); err == nil {
		return i, true
	}
	f, err := n.Float64()
	if err != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}

// isWhole reports whether n is a whole number, in range or not.
func isWhole(n json.Number) bool {
	if _, err := n.Int64(); err == nil {
		return true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return (err == nil || errors.Is(err, strconv.ErrRange)) && f == math.Trunc(f)
}

// wholeIntegers is val with each number the schema s types as an integer
// written as one, in arrays and objects too.
func wholeIntegers(s *jsonschema.Schema, val any) any {
	if s == nil {
		return val
	}
	switch x := val.(type) {
	case json.Number:
		if i, ok := asInteger(x); ok && (s.Type == "integer" || slices.Contains(s.Types, "integer")) {
			return json.Number(strconv.FormatInt(i, 10))
		}
	case []any:
		for i := range x {
			x[i] = wholeIntegers(s.Items, x[i])
		}
	case map[string]any:
		for name, item := range x {
			x[name] = wholeIntegers(s.Properties[name], item)
		}
	}
	return val
}

// article is a JSON type named as a sentence says it.
func article(t string) string {
	switch t {
	case "null":
		return "null"
	case "array", "object", "integer":
		return "an " + t
	}
	return "a " + t
}
