package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/memcompact/memcompact/internal/claudehooks"
)

// readJSON decodes the repository file rel into v.
func readJSON(t *testing.T, rel string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
}

// TestPluginManifests: the plugin is memcompact@memcompact, its MCP server
// and hooks run the launcher without a shell, and its hooks are exactly
// the ones "memcompact hooks install" writes (claudehooks.Ours), so the
// plugin and the settings install cannot drift apart.
func TestPluginManifests(t *testing.T) {
	var plugin struct {
		Name       string
		Version    string
		MCPServers map[string]struct {
			Command string
			Args    []string
		}
	}
	readJSON(t, ".claude-plugin/plugin.json", &plugin)
	const launcher = "${CLAUDE_PLUGIN_ROOT}/bin/memcompact"
	if plugin.Name != "memcompact" || plugin.Version == "" {
		t.Errorf("plugin.json: name %q, version %q", plugin.Name, plugin.Version)
	}
	if s := plugin.MCPServers["memcompact"]; s.Command != launcher || len(s.Args) != 1 || s.Args[0] != "mcp" {
		t.Errorf("plugin.json: the MCP server runs %q %q, want %s mcp", s.Command, s.Args, launcher)
	}
	var market struct {
		Name    string
		Plugins []struct{ Name, Source string }
	}
	readJSON(t, ".claude-plugin/marketplace.json", &market)
	if market.Name != "memcompact" || len(market.Plugins) != 1 || market.Plugins[0].Name != "memcompact" || market.Plugins[0].Source != "./" {
		t.Errorf("marketplace.json: %+v, want the marketplace memcompact listing the plugin memcompact at ./", market)
	}

	var hooks struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct {
				Type, Command, OnFailure string
				Args                     []string
			}
		}
	}
	readJSON(t, "hooks/hooks.json", &hooks)
	seen := 0
	for _, want := range claudehooks.Ours {
		groups := hooks.Hooks[want.Event]
		found := false
		for _, g := range groups {
			for _, h := range g.Hooks {
				if h.Command == launcher && len(h.Args) == 2 && h.Args[0] == "hook" && h.Args[1] == want.Sub {
					seen++
					found = true
					if g.Matcher != want.Matcher {
						t.Errorf("hooks.json: %s hook %s matches %q; hooks install writes %q", want.Event, want.Sub, g.Matcher, want.Matcher)
					}
					if want.Sub == "pre-write" && h.OnFailure != "block" {
						t.Errorf("hooks.json: pre-write has onFailure %q: a launcher that cannot start would let memory writes through", h.OnFailure)
					}
				}
			}
		}
		if !found {
			t.Errorf("hooks.json has no %s hook running %s hook %s", want.Event, launcher, want.Sub)
		}
	}
	total := 0
	for _, groups := range hooks.Hooks {
		for _, g := range groups {
			total += len(g.Hooks)
		}
	}
	if total != seen {
		t.Errorf("hooks.json declares %d hooks, %d of them memcompact's: each would fire twice or run something else", total, seen)
	}
}
