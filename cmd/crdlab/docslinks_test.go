package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// The relative links between the Markdown pages (README.md,
// ARCHITECTURE.md, RATIONALE.md and docs/**/*.md) must resolve: the file
// must exist and, for a link into a Markdown file, the #anchor must be one
// of its headings' anchors as GitHub makes them (githubAnchor) or an
// explicit <a id> / <a name>. TestDocsIndexReachesEveryPage checks that
// every page is reachable; this checks where each link lands.

var (
	mdLinkRE     = regexp.MustCompile(`\]\(([^()\s]+)(?:\s+"[^"]*")?\)`)
	mdInlineLink = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	mdHeadingRE  = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	mdExplicitRE = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	mdCodeSpanRE = regexp.MustCompile("`[^`\n]*`")
)

// githubAnchor is the anchor GitHub gives a heading's text: links replaced
// by their text, lower case, every character that is not a letter, a
// digit, a mark, '_', '-' or a space dropped, each space a hyphen.
func githubAnchor(heading string) string {
	heading = mdInlineLink.ReplaceAllString(heading, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// markdownAnchors returns the anchors of a Markdown text: its headings'
// (outside fenced blocks; a repeated anchor gets -1, -2, ... as on
// GitHub) and its explicit <a id>/<a name> anchors.
func markdownAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range mdExplicitRE.FindAllStringSubmatch(l, -1) {
			anchors[m[1]] = true
		}
		m := mdHeadingRE.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		a := githubAnchor(m[2])
		if n := seen[a]; n > 0 {
			anchors[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// markdownLinks returns the link targets of a Markdown text's prose (not
// of its fenced blocks and code spans), each with its line.
func markdownLinks(text string) (targets []string, lines []int) {
	fenced := false
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		l = mdCodeSpanRE.ReplaceAllString(l, "")
		for _, m := range mdLinkRE.FindAllStringSubmatch(l, -1) {
			targets = append(targets, m[1])
			lines = append(lines, i+1)
		}
	}
	return targets, lines
}

// brokenLinks checks the relative links of the Markdown files given
// (paths under root) and returns one message per link that does not
// resolve.
func brokenLinks(root string, files []string) ([]string, error) {
	var broken []string
	anchorsOf := map[string]map[string]bool{}
	anchors := func(path string) (map[string]bool, error) {
		if a, ok := anchorsOf[path]; ok {
			return a, nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		anchorsOf[path] = markdownAnchors(string(data))
		return anchorsOf[path], nil
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		targets, lines := markdownLinks(string(data))
		for i, target := range targets {
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := filepath.Join(root, f)
			if file != "" {
				path = filepath.Join(filepath.Dir(path), file)
			}
			if _, err := os.Stat(path); err != nil {
				broken = append(broken, fmt.Sprintf("%s:%d: %s: no file %s", f, lines[i], target, file))
				continue
			}
			if anchor == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			a, err := anchors(path)
			if err != nil {
				return nil, err
			}
			if !a[anchor] {
				broken = append(broken, fmt.Sprintf("%s:%d: %s: no heading with anchor #%s", f, lines[i], target, anchor))
			}
		}
	}
	return broken, nil
}

// docsMarkdownFiles are the pages whose links are checked, relative to
// the repository root.
func docsMarkdownFiles(t *testing.T, root string) []string {
	t.Helper()
	files := []string{"README.md", "ARCHITECTURE.md", "RATIONALE.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestDocsRelativeLinksResolve(t *testing.T) {
	files := docsMarkdownFiles(t, "../..")
	if len(files) < 10 {
		t.Fatalf("%d Markdown files found: the docs have more", len(files))
	}
	broken, err := brokenLinks("../..", files)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Error(b)
	}
}

func TestGithubAnchorOfHeading(t *testing.T) {
	for _, tt := range []struct{ heading, want string }{
		{"Known differences and limits", "known-differences-and-limits"},
		{"Testing policies (`crdlab test`)", "testing-policies-crdlab-test"},
		{"Why is cel-go pinned to v0.29.2?", "why-is-cel-go-pinned-to-v0292"},
		{"The language server (`crdlab lsp`)", "the-language-server-crdlab-lsp"},
		{"Why 3.62 MB since the `admit` op?", "why-362-mb-since-the-admit-op"},
		{"Server-side apply (`apply/`)", "server-side-apply-apply"},
		{"Kubernetes 1.31 to 1.33: Go-syntax values", "kubernetes-131-to-133-go-syntax-values"},
		{"See [the authorizer](authorizer.md) here", "see-the-authorizer-here"},
		{"snake_case stays", "snake_case-stays"},
		{"Ünïcode letters — kept", "ünïcode-letters--kept"},
	} {
		if got := githubAnchor(tt.heading); got != tt.want {
			t.Errorf("githubAnchor(%q) = %q, want %q", tt.heading, got, tt.want)
		}
	}
}

func TestBrokenLinksFindsMissingFilesAndAnchors(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("docs/a.md", "# A\n\n## Twice\n\n## Twice\n\n<a id=\"here\"></a>\n\n```\n## Not a heading\n```\n")
	write("README.md", strings.Join([]string{
		"[ok](docs/a.md) [ok](docs/a.md#twice) [ok](docs/a.md#twice-1) [ok](docs/a.md#here)",
		"[web](https://example.com/x.md#nope) [self](#readme-heading)",
		"`[code span](docs/missing.md)`",
		"[gone](docs/missing.md)",
		"[no anchor](docs/a.md#twice-2)",
		"[fenced only](docs/a.md#not-a-heading)",
		"[missing self](#nowhere)",
		"# README heading",
	}, "\n"))
	broken, err := brokenLinks(root, []string{"README.md"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"README.md:4: docs/missing.md: no file docs/missing.md",
		"README.md:5: docs/a.md#twice-2: no heading with anchor #twice-2",
		"README.md:6: docs/a.md#not-a-heading: no heading with anchor #not-a-heading",
		"README.md:7: #nowhere: no heading with anchor #nowhere",
	}
	if strings.Join(broken, "\n") != strings.Join(want, "\n") {
		t.Errorf("broken links:\n%s\nwant:\n%s", strings.Join(broken, "\n"), strings.Join(want, "\n"))
	}
}
