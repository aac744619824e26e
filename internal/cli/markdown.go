package cli

// memcompact cuts indexes with goldmark's Markdown parser (see package
// mdblocks for why it is registered rather than imported by the load cut).
import _ "github.com/memcompact/memcompact/internal/mdblocks/gmblocks"
