// Package summarize runs a language model as the summarizer of a memory
// file's oldest tier, and checks what it wrote.
//
// Four summarizers share everything here: Claude Code headless ("claude",
// which runs `claude -p`), the Anthropic Messages API ("anthropic", through
// the official Go SDK), any OpenAI-compatible chat-completions server
// ("openai": OpenAI, Ollama, llama.cpp's server, vLLM, LM Studio, through
// the official Go SDK) and a shell command of the user's own. Each is given
// the same two texts: the instructions (Instructions, MemoryCore's rules
// in our words) and the request (Request: the must-keep lines, then the
// entries to distill). Each answers with text that must be a Markdown list
// and nothing else; anything else is an error and nothing is used.
//
// Distill then checks the bullets with a Check the compaction supplies
// (every must-keep line and every fact that must stay live is present, the
// block fits), sends what is missing back once, naming exactly what, and if
// it is still missing appends the source lines verbatim (or fails, when
// strict). A bullet that holds a secret is never repaired: the answer is
// refused whole, and the secret is not quoted.
//
// Nothing leaves the machine by accident. The caller decides what goes in
// a Request (secret entries never do); Remote says whether a summarizer
// would send it off this machine, so the caller can ask first; Preview
// renders exactly what would be sent, for --plan, without sending it.
package summarize
