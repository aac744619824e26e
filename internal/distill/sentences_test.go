package distill

import (
	"reflect"
	"testing"
)

func TestSentences(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"Uses tabs. Runs tests.", []string{"Uses tabs.", "Runs tests."}},
		{"Aiko Geburtstag am 14. März. Omar trinkt Tee.", []string{"Aiko Geburtstag am 14. März.", "Omar trinkt Tee."}},
		{"Termin am 3. Oktober 2025. Danach Urlaub.", []string{"Termin am 3. Oktober 2025.", "Danach Urlaub."}},
		{"Pinned to v2. Then upgraded.", []string{"Pinned to v2.", "Then upgraded."}},
		{"Timeout is 120. Retries stay.", []string{"Timeout is 120.", "Retries stay."}},
		{"Zwei. Drei.", []string{"Zwei.", "Drei."}},
		{"决定用Go。 测试通过。", []string{"决定用Go。", "测试通过。"}},
	} {
		if got := sentences(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("sentences(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestUniqueKept(t *testing.T) {
	// An earlier block's "Kept:" list, then the statements of the
	// entries folded now, which restate two of its facts.
	got := uniqueKept([]string{
		"Lena hat zwei Kinder. Aiko Geburtstag am 14. März.",
		"Aiko Geburtstag am 14. März.",
		"Omar ist allergisch gegen Erdnüsse.",
		"Lena  hat zwei Kinder.",
	})
	want := []string{"Lena hat zwei Kinder. Aiko Geburtstag am 14. März.", "Omar ist allergisch gegen Erdnüsse."}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("uniqueKept = %q, want %q", got, want)
	}
	// CJK sentences have no space between them, and none is added.
	jp := []string{"決定はAにする。理由はBだ。", "理由はBだ。"}
	if got := uniqueKept(jp); !reflect.DeepEqual(got, jp[:1]) {
		t.Errorf("uniqueKept(%q) = %q, want %q", jp, got, jp[:1])
	}
}
