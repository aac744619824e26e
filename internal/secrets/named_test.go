package secrets

import "testing"

// checkAuthorizationWords: a text one of scanAuthorization's patterns
// matches in is one authorizationWords lets that pattern run on.
func checkAuthorizationWords(t *testing.T, s string) {
	t.Helper()
	bearer, basic, header := authorizationWords(asciiLower(s))
	for _, c := range []struct {
		name string
		may  bool
		hit  bool
	}{
		{"bearer", bearer, bearerRE().MatchString(s)},
		{"basic", basic, basicRE().MatchString(s)},
		{"header", header, headerRE().MatchString(s)},
	} {
		if c.hit && !c.may {
			t.Errorf("%q: the %s pattern matches, but authorizationWords skips it", s, c.name)
		}
	}
}

var authorizationSeeds = []string{
	"Authorization: Bearer abcDEF123456", "curl -H 'Authorization: Basic dXNlcjpwYXNz'", "BASIC dXNlcjpwYXNz",
	"X-API-\u212Aey: abcdef123456", "x-acce\u017ft-token=abcdef123456", "Ba\u017fic dXNlcjpwYXNz", "apikey: Zq8Lw3nR",
	"PRIVATE-TOKEN: glpat-abcdefgh", "X-Auth-Token: 12345678abc", "basic english, bearer of news",
}

func TestAuthorizationWords(t *testing.T) {
	for _, s := range authorizationSeeds {
		checkAuthorizationWords(t, s)
	}
}

func FuzzAuthorizationWords(f *testing.F) {
	for _, s := range authorizationSeeds {
		f.Add(s)
	}
	f.Fuzz(checkAuthorizationWords)
}
