package writeguard

// The tests cut indexes with goldmark's parser, as memcompact does.
import _ "github.com/memcompact/memcompact/internal/mdblocks/gmblocks"
