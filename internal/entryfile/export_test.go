package entryfile

// DecodeOwn is the own decoder, for the differential tests of package
// ccentry_test (which link yamlfm, and so yaml.v3).
var DecodeOwn = decodeOwn

// WithoutOwn makes every block go to the fallback, as if the own decoder
// were unsure of all, until the returned function is called: the reading
// that pure yaml.v3 gives, to compare with.
func WithoutOwn() (restore func()) {
	own = func(string) (Fields, bool) { return Fields{}, false }
	return func() { own = decodeOwn }
}

// ParseAnswer and EncodeAnswer are the companion protocol's answer, for
// its fuzz test.
var (
	ParseAnswer  = parseAnswer
	EncodeAnswer = encodeAnswer
)

// FrontmatterBlock is the frontmatter block of an entry's text, if any.
func FrontmatterBlock(text string) (string, bool) {
	_, block, ok := splitEntry("", text)
	return block, ok
}
