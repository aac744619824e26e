package records

import (
	"fmt"
	"strings"
)

// Identity is a decoded life key, <name>@<admitted>.
type Identity struct {
	Name     string
	Admitted string // a yyyy-MM-dd date, or Unknown
}

// String is the life key.
func (id Identity) String() string { return id.Name + "@" + id.Admitted }

// IsUnknown reports whether the life is unbound (no admitted date).
func (id Identity) IsUnknown() bool { return id.Admitted == Unknown }

// ParseIdentity decodes a life key on its last '@'. The admitted date may
// not lie after asOf (pass MaxDate to allow any). On failure it returns the
// reference's message saying why.
func ParseIdentity(text string, asOf Date) (Identity, string) {
	at := strings.LastIndexByte(text, '@')
	if at < 1 || at == len(text)-1 {
		return Identity{}, fmt.Sprintf("identity must read '<entry-name>@<yyyy-MM-dd>' or '<entry-name>@unknown'; found '%s'", text)
	}
	name, admitted := text[:at], text[at+1:]
	if strings.Contains(name, "@") {
		return Identity{}, fmt.Sprintf("an entry name may not contain '@'; '%s' does not decode to one identity", text)
	}
	if admitted == Unknown {
		return Identity{Name: name, Admitted: Unknown}, ""
	}
	if _, why := checkDate(admitted, asOf, "the admitted date in an identity"); why != "" {
		return Identity{}, why
	}
	return Identity{Name: name, Admitted: admitted}, ""
}

// IsUnknownKey reports whether a life key string ends in "@unknown".
func IsUnknownKey(key string) bool { return strings.HasSuffix(key, "@"+Unknown) }
