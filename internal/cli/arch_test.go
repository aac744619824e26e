package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// layers is ARCHITECTURE.md's table, the allow-list of packages: every
// package under internal/ and the layer it sits in. A package must import
// only from layers below its own (or its own, except for faces); one not
// listed fails TestLayers.
var layers = map[string]int{
	"cli": faces, "mcpserver": faces,

	"check": engines, "loadcut": engines, "drift": engines, "secrets": engines, "doctor": engines,
	"measure": engines, "sweep": engines, "sweepact": engines, "budget": engines, "compact": engines,
	"snapshot": engines, "writeguard": engines, "claudehooks": engines, "recall": engines, "distill": engines,
	"summarize": engines, "journal": engines, "hookrun": engines,

	"index": formats, "policy": formats, "records": formats, "tiers": formats, "facts": formats,
	"reference": formats, "store": formats, "secretheading": formats, "entryfile": formats, "mdblocks": formats,
	"hookjson": formats,

	"textfile": foundations, "atomicfile": foundations, "lockfile": foundations, "outcome": foundations,
	"jsonout": foundations, "extcmd": foundations, "crashpoint": foundations, "testshared": foundations,
	"lazyre": foundations, "filecache": foundations, "userenv": foundations, "psflag": foundations, "shellword": foundations,
	"hookstate": foundations, "testshared/short": foundations,
	// Tests only:
	"summarize/summarizetest": engines, "secrets/secretstest": foundations,
	"torture": foundations, // tests only
}

const (
	foundations = iota
	formats
	engines
	faces
)

const module = "github.com/memcompact/memcompact/internal/"

// internalImports returns, for each package under internal/, the internal
// packages its non-test files import, and those files parsed.
func internalImports(t *testing.T) (map[string][]string, map[string][]*ast.File) {
	t.Helper()
	var dirs []string // every package folder under internal/, nested ones too
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != ".." {
			return filepath.SkipDir
		}
		if d.IsDir() && p != ".." {
			dirs = append(dirs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	imports, files := map[string][]string{}, map[string][]*ast.File{}
	fset := token.NewFileSet()
	for _, dir := range dirs {
		rel, _ := filepath.Rel("..", dir)
		pkg := filepath.ToSlash(rel)
		names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, name := range names {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly|parser.ParseComments)
			if pkg == "cli" {
				f, err = parser.ParseFile(fset, name, nil, 0)
			}
			if err != nil {
				t.Fatal(err)
			}
			fileNames[f] = name
			files[pkg] = append(files[pkg], f)
			for _, imp := range f.Imports {
				ip, _ := strconv.Unquote(imp.Path.Value)
				if q, ok := strings.CutPrefix(ip, module); ok && !slices.Contains(imports[pkg], q) {
					imports[pkg] = append(imports[pkg], q)
				}
			}
		}
	}
	return imports, files
}

// TestLayers checks ARCHITECTURE.md's import rule for every package in its
// table, and names the packages missing from it (add a new package to
// layers and to ARCHITECTURE.md).
func TestLayers(t *testing.T) {
	imports, files := internalImports(t)
	for pkg := range files {
		layer, ok := layers[pkg]
		if !ok {
			t.Errorf("internal/%s is in no layer: add it to ARCHITECTURE.md and to layers in arch_test.go", pkg)
			continue
		}
		for _, q := range imports[pkg] {
			ql, ok := layers[q]
			switch {
			case !ok:
				t.Errorf("internal/%s imports internal/%s, which is in no layer", pkg, q)
			case ql > layer || (ql == layer && layer == faces):
				t.Errorf("internal/%s (layer %d) imports internal/%s (layer %d): a package imports only from the layers below it", pkg, layer, q, ql)
			}
		}
	}
}

// entryPoint is what a face may use of an engine package: its entry point
// and request and result types, its typed reasons, and its renderers.
// The status and action words a result carries (Status*, Action*) and its
// warnings are part of its type; Default* are a Request's defaults. Some engines name their entry point for the verb.
var entryPoint = regexp.MustCompile(`^(Run\w*|\w*Request|\w*Result|\w*Report|Outcome|Reason\w*|Usage|Write\w*|\w*JSON\w*|Status\w*|Action\w*|Default\w*|Warning\w*)$`)

var verbEntryPoints = map[string][]string{
	"budget":   {"Init", "SetBudget", "PolicyRel", "PolicyRow"}, // the policy's place and row shape, which hints to paste name
	"compact":  {"Save"},
	"snapshot": {"Restore", "Catalog"},
	"sweep":    {"Records"}, // the store part of every sweep Request
}

// TestFacesUseOnlyEntryPoints: no file in internal/cli uses an engine
// package beyond its entry point (see entryPoint).
func TestFacesUseOnlyEntryPoints(t *testing.T) {
	_, files := internalImports(t)
	for _, f := range files["cli"] {
		engineNames := map[string]string{} // local name → package
		for _, imp := range f.Imports {
			ip, _ := strconv.Unquote(imp.Path.Value)
			q, ok := strings.CutPrefix(ip, module)
			if !ok || layers[q] != engines {
				continue
			}
			local := path.Base(q)
			if imp.Name != nil {
				local = imp.Name.Name
			}
			engineNames[local] = q
		}
		var bad []string
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok || engineNames[x.Name] == "" || entryPoint.MatchString(sel.Sel.Name) || slices.Contains(verbEntryPoints[engineNames[x.Name]], sel.Sel.Name) {
				return true
			}
			{
				if s := x.Name + "." + sel.Sel.Name; !slices.Contains(bad, s) {
					bad = append(bad, s)
				}
			}
			return true
		})
		sort.Strings(bad)
		name := filepath.Base(fileName(f))
		if len(bad) > 0 {
			t.Errorf("%s reaches past engine entry points: %s", name, strings.Join(bad, ", "))
		}
	}
}

var fileNames = map[*ast.File]string{}

func fileName(f *ast.File) string { return fileNames[f] }
