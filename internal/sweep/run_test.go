package sweep

import "testing"

// TestJSONEscapes pins the escaping of the reference's serializer:
// HTML characters and ordinary non-ASCII text stay as they are; control
// characters and the three Unicode line breaks are escaped.
func TestJSONEscapes(t *testing.T) {
	got := string(JSON(map[string]string{"k": "<a&b> é \u0085 \u2028 \u2029 \x01 \t \"\\"}))
	want := "{\n  \"k\": \"<a&b> é \\u0085 \\u2028 \\u2029 \\u0001 \\t \\\"\\\\\"\n}"
	if got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}
