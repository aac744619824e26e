package entryfile

// DecodeOwn is the own decoder and DecodeYAML yaml.v3's reading, for the
// differential tests of package entryfile_test.
var (
	DecodeOwn  = decodeOwn
	DecodeYAML = decodeYAML
)

// WithoutOwn makes every block go to yaml.v3, as if the own decoder were
// unsure of all, until the returned function is called: the reading that
// pure yaml.v3 gives, to compare with.
func WithoutOwn() (restore func()) {
	own = func(string) (Fields, bool) { return Fields{}, false }
	return func() { own = decodeOwn }
}

// FrontmatterBlock is the frontmatter block of an entry's text, if any.
func FrontmatterBlock(text string) (string, bool) {
	_, block, ok := splitEntry("", text)
	return block, ok
}
