package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/crdlab/crdlab/cost"
	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/internal/cel"
	"github.com/crdlab/crdlab/internal/yamldoc"
	yaml "sigs.k8s.io/yaml/goyaml.v3"
)

// source is the diagnostics' source.
const source = "crdlab"

// analysis is what the server knows about one version of one document:
// its YAML documents, each CRD compiled, the diagnostics.
type analysis struct {
	uri     string
	version int
	text    string
	lines   []string
	docs    []*docInfo
	diags   []Diagnostic
	dropped int    // diagnostics past maxDiagnostics
	kube    string // the Kubernetes release of the checks ("" the default)
}

// docInfo is one YAML document of a file.
type docInfo struct {
	line     int // 1-based line of the document's first byte in the file
	data     []byte
	root     *yaml.Node // nil when it does not parse (or is not parsed yet)
	parsed   bool
	parseErr error
	lines    []string // the document's lines

	apiVersion, kind string

	crd   *engine.CRD // a CustomResourceDefinition that decoded
	rules []ruleRef   // its rules (CRDs)

	defOnce sync.Once
	def     *crd.CustomResourceDefinition

	costOnce sync.Once
	cost     *cost.Report
}

// definition is the decoded CRD of a CRD document (nil when it does not
// decode).
func (d *docInfo) definition() *crd.CustomResourceDefinition {
	d.defOnce.Do(func() {
		if d.crd != nil {
			d.def = d.crd.Definition()
			return
		}
		if !d.isCRD() {
			return
		}
		if doc, err := crd.DecodeOneDocument(d.data, ""); err == nil {
			d.def = doc.CRD
		}
	})
	return d.def
}

const crdAPIGroup = "apiextensions.k8s.io"

func (d *docInfo) isCRD() bool {
	return d.kind == "CustomResourceDefinition" && strings.HasPrefix(d.apiVersion, crdAPIGroup+"/")
}

// ensureRoot parses the document (once) and lists its rules when it is
// a CRD.
func (d *docInfo) ensureRoot() *yaml.Node {
	if !d.parsed {
		d.parsed = true
		d.root, d.parseErr = parseNode(d.data)
		if d.root != nil && d.apiVersion == "" && d.kind == "" {
			d.apiVersion, d.kind = scalarAt(d.root, "apiVersion"), scalarAt(d.root, "kind")
		}
		if d.root != nil && d.isCRD() {
			d.rules = findRules(d.root)
		}
	}
	return d.root
}

// fileLine converts a line of the document to a line of the file (both 1-based).
func (d *docInfo) fileLine(l int) int { return d.line + l - 1 }

// costReport is the cost report of a CRD document, computed on first use
// (hover and code actions: it re-estimates rules for its suggestions).
func (d *docInfo) costReport() *cost.Report {
	d.costOnce.Do(func() {
		def := d.definition()
		if def == nil {
			return
		}
		rep, err := cost.Analyze(def)
		if err == nil {
			d.cost = rep
		}
	})
	return d.cost
}

// splitDocs splits text into its YAML documents and parses each (parse
// false: only the documents whose apiVersion and kind are not on
// top-level lines; the others parse on first use, ensureRoot).
func splitDocs(text string, parse bool) ([]*docInfo, error) {
	parts, err := yamldoc.Split([]byte(text))
	if err != nil {
		return nil, err
	}
	var docs []*docInfo
	for _, p := range parts {
		if yamldoc.Empty(p.Data) {
			continue
		}
		d := &docInfo{line: p.Line, data: p.Data, lines: strings.Split(string(p.Data), "\n")}
		if !parse {
			d.apiVersion, d.kind = topLevel(d.lines, "apiVersion"), topLevel(d.lines, "kind")
			if t := bytes.TrimLeft(p.Data, " \t\r\n\ufeff"); d.apiVersion == "" && len(t) > 0 && t[0] == '{' {
				d.apiVersion, d.kind = jsonTopLevel(t)
			}
			if d.apiVersion != "" && d.kind != "" {
				docs = append(docs, d)
				continue
			}
		}
		d.apiVersion, d.kind = "", ""
		if d.ensureRoot() == nil {
			// being typed (or beyond goyaml.v3): read them from their lines
			d.apiVersion, d.kind = topLevel(d.lines, "apiVersion"), topLevel(d.lines, "kind")
			if t := bytes.TrimLeft(p.Data, " \t\r\n\ufeff"); d.apiVersion == "" && len(t) > 0 && t[0] == '{' {
				d.apiVersion, d.kind = jsonTopLevel(t)
			}
		}
		docs = append(docs, d)
	}
	return docs, nil
}

// maxDocumentBytes bounds the documents the server reads: a larger one
// gets one diagnostic and no completion or hover (the API server takes 3
// MiB per object; a file of many objects may be larger).
const maxDocumentBytes = 16 << 20

// analyze checks one version of a document at a Kubernetes release
// (kubeVersion, "" the engine's default): CRDs are compiled (the API
// server's create verdict), ValidatingAdmissionPolicies' expressions
// compiled, custom resources validated against the CRD of their kind
// that lookup finds (compiled for the same release), and the policies
// type-checked against the CRDs of the document and those groupCRDs gives
// for a group ("" every group; nil: none).
func analyze(ctx context.Context, uri string, version int, text, kubeVersion string, lookup func(group, kind string) *engine.CRD, groupCRDs func(group string) []*engine.CRD) *analysis {
	a := &analysis{uri: uri, version: version, text: text, lines: strings.Split(text, "\n"), kube: kubeVersion}
	if len(text) > maxDocumentBytes {
		a.add(a.lineRange(1), SeverityError, fmt.Sprintf("the document is %d bytes: crdlab lsp reads documents up to %d bytes", len(text), maxDocumentBytes))
		return a
	}
	docs, err := splitDocs(text, false)
	if err != nil {
		var se *yamldoc.SeparatorError
		line := 1
		if errors.As(err, &se) {
			line = se.Line
		}
		a.add(a.lineRange(line), SeverityError, err.Error())
		return a
	}
	a.docs = docs
	var policies []*docInfo
	for _, d := range docs {
		if ctx.Err() != nil {
			return a
		}
		switch {
		case d.isCRD() || bytes.Contains(d.data, []byte("CustomResourceDefinition")) && d.ensureRoot() == nil:
			a.checkCRD(d)
		case d.apiVersion == "" || d.kind == "":
			// not a Kubernetes object (or not one yet): other YAML tools
			// report its syntax
		case isPolicy(d):
			a.checkPolicy(d)
			policies = append(policies, d)
		default:
			group, _, _ := strings.Cut(d.apiVersion, "/")
			if !strings.Contains(d.apiVersion, "/") {
				group = ""
			}
			if c := lookup(group, d.kind); c != nil {
				a.checkObject(d, c)
			}
		}
	}
	// after the loop: the CRDs of the document are compiled
	for _, d := range policies {
		if ctx.Err() != nil {
			return a
		}
		a.typeCheckPolicy(d, groupCRDs)
	}
	return a.finish()
}

// jsonTopLevel returns the apiVersion and kind of a JSON document, read
// token by token (no recursion: a document nested 10,000 deep is read
// as any other, and left to the engine's decoder to reject).
func jsonTopLevel(data []byte) (apiVersion, kind string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	depth := 0
	expectKey := false
	var key string
	for {
		tok, err := dec.Token()
		if err != nil {
			return apiVersion, kind
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
				if depth == 1 {
					if d == '[' {
						return "", ""
					}
					expectKey = true
				}
			default:
				depth--
				if depth == 0 {
					return apiVersion, kind
				}
				if depth == 1 {
					expectKey = true // a container value ended
				}
			}
			continue
		}
		if depth != 1 {
			continue
		}
		if expectKey {
			key, _ = tok.(string)
			expectKey = false
			continue
		}
		if v, ok := tok.(string); ok {
			switch key {
			case "apiVersion":
				apiVersion = v
			case "kind":
				kind = v
			}
		}
		expectKey = true
	}
}

// topLevel returns the plain value of a top-level "key: value" line.
func topLevel(lines []string, key string) string {
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			v, _, _ = strings.Cut(v, " #")
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}

// maxDiagnostics bounds the diagnostics of a document: past it, one more
// says how many were left out (an editor shows no more, and a list of
// 100,000 duplicates would be megabytes per keystroke).
const maxDiagnostics = 1000

// maxMessageBytes bounds a diagnostic's message: an enum of 100,000
// values makes each of its errors megabytes long.
const maxMessageBytes = 4000

func (a *analysis) add(r Range, sev int, msg string) {
	if a.full() {
		return
	}
	a.diags = append(a.diags, Diagnostic{Range: r, Severity: sev, Source: source, Message: clipMessage(msg)})
}

// full reports (and counts) a diagnostic past maxDiagnostics: the caller
// skips it without computing its range.
func (a *analysis) full() bool {
	if len(a.diags) >= maxDiagnostics {
		a.dropped++
		return true
	}
	return false
}

func clipMessage(msg string) string {
	if len(msg) <= maxMessageBytes {
		return msg
	}
	cut := maxMessageBytes
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes in all: crdlab validate and crdlab lint print the whole message)", msg[:cut], len(msg))
}

// finish adds the note about the diagnostics left out.
func (a *analysis) finish() *analysis {
	if a.dropped > 0 {
		a.diags = append(a.diags, Diagnostic{Range: a.lineRange(1), Severity: SeverityInformation, Source: source,
			Message: fmt.Sprintf("%d more diagnostics not shown (crdlab lsp shows the first %d; crdlab validate and crdlab lint list them all)", a.dropped, maxDiagnostics)})
	}
	return a
}

// lineRange is the range of a whole line (1-based), from its first
// non-blank character.
func (a *analysis) lineRange(line int) Range {
	if line < 1 {
		line = 1
	}
	if line > len(a.lines) {
		line = len(a.lines)
	}
	l := strings.TrimSuffix(a.lines[line-1], "\r")
	start := len(l) - len(strings.TrimLeft(l, " \t"))
	return Range{Start: Position{Line: line - 1, Character: utf16Len(l[:start])}, End: Position{Line: line - 1, Character: utf16Len(l)}}
}

// at is the range of the token at a 1-based line and column (in runes)
// of the file: up to the next ':' or blank, or the line's end.
func (a *analysis) at(line, col int) Range {
	if line < 1 || line > len(a.lines) {
		return a.lineRange(line)
	}
	start := posInLine(a.lines[line-1], line, col)
	l := []rune(strings.TrimRight(a.lines[line-1], "\r"))
	end := col - 1
	for end < len(l) && l[end] != ':' && l[end] != ' ' && l[end] != '\t' && l[end] != ',' && l[end] != ')' {
		end++
	}
	if end == col-1 && end < len(l) {
		end++
	}
	return Range{Start: start, End: posInLine(a.lines[line-1], line, end+1)}
}

// docStart is the range of the first line of a document that holds
// something (for messages without a position).
func (a *analysis) docStart(d *docInfo) Range {
	for i, l := range d.lines {
		if t := strings.TrimSpace(l); t != "" && t[0] != '#' {
			return a.lineRange(d.fileLine(i + 1))
		}
	}
	return a.lineRange(d.line)
}

// located is the range of an engine position in document d, or the
// document's start when the position is unknown.
func (a *analysis) located(d *docInfo, p engine.Position) Range {
	if !p.Known() {
		return a.docStart(d)
	}
	return a.at(d.fileLine(p.Line), p.Column)
}

// checkCRD compiles a CRD document and reports the API server's verdict.
func (a *analysis) checkCRD(d *docInfo) {
	c, err := engine.CompileWithOptions(d.data, engine.CompileOptions{KubeVersion: a.kube})
	if err != nil {
		var de *crd.DecodeError
		if errors.As(err, &de) && de.Line > 0 {
			a.add(a.at(d.fileLine(de.Line), max(de.Column, 1)), SeverityError, decodeMessage(de))
		} else {
			a.add(a.docStart(d), SeverityError, err.Error())
		}
		return
	}
	d.crd = c
	if msg := c.DecodeError(); msg != "" {
		fes := c.FieldErrors()
		if len(fes) == 0 {
			a.add(a.docStart(d), SeverityError, msg)
		}
		for _, fe := range fes {
			r := a.docStart(d)
			if fe.Pos != nil && fe.Pos.Line > 0 {
				r = a.at(d.fileLine(fe.Pos.Line), max(fe.Pos.Column, 1))
			}
			a.add(r, SeverityError, fe.Type+" \""+fe.Path+"\": "+msg)
		}
		return
	}
	pos := c.Positions()
	for i, e := range c.Errors() {
		if a.full() {
			continue
		}
		var p engine.Position
		if i < len(pos.Errors) {
			p = pos.Errors[i]
		}
		r := a.located(d, p)
		if cr, ok := a.celErrorRange(d, p, e.Detail); ok {
			r = cr
		}
		a.add(r, SeverityError, e.Error())
	}
	for i, w := range c.Warnings() {
		if a.full() {
			continue
		}
		var p engine.Position
		if i < len(pos.Warnings) {
			p = pos.Warnings[i]
		}
		r := a.located(d, p)
		if fr, ok := a.formatWarningRange(d, p, w); ok {
			r = fr
		}
		a.add(r, SeverityWarning, w)
	}
}

var unrecognizedFormatRE = regexp.MustCompile(`^unrecognized format "(.*)"$`)

// formatWarningRange places an `unrecognized format "X"` warning (which
// names no field) on the first "format: X" of the document's schemas.
func (a *analysis) formatWarningRange(d *docInfo, p engine.Position, w string) (Range, bool) {
	m := unrecognizedFormatRE.FindStringSubmatch(w)
	if m == nil || p.Known() || d.ensureRoot() == nil {
		return Range{}, false
	}
	var found *yaml.Node
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		if n == nil || found != nil || depth > 200 {
			return
		}
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if k, v := n.Content[i], n.Content[i+1]; k.Value == "format" && v.Kind == yaml.ScalarNode && v.Value == m[1] {
					found = v
					return
				}
				walk(n.Content[i+1], depth+1)
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, depth+1)
			}
		}
	}
	walk(d.root, 0)
	if found == nil {
		return Range{}, false
	}
	return a.at(d.fileLine(found.Line), found.Column), true
}

func decodeMessage(de *crd.DecodeError) string {
	if de.Path != "" {
		return de.Path + ": " + de.Msg
	}
	return de.Msg
}

// celErrorRange places a CEL compile error (an error on a rule or
// messageExpression whose detail holds "<input>:line:col") inside the
// rule's string: p is the engine's position of the rule's key.
func (a *analysis) celErrorRange(d *docInfo, p engine.Position, detail string) (Range, bool) {
	if _, named := cel.CompileErrorOffset("", detail); !named || !p.Known() || d.ensureRoot() == nil {
		return Range{}, false
	}
	var rule *ruleRef
	for i := range d.rules {
		if k := d.rules[i].key; k.Line == p.Line && k.Column == p.Column {
			rule = &d.rules[i]
			break
		}
	}
	if rule == nil {
		return Range{}, false
	}
	k, _ := cel.CompileErrorOffset(rule.value.Value, detail)
	l, c, ok := scalarRunePos(d.lines, rule.value, k)
	if !ok {
		return Range{}, false
	}
	return a.at(d.fileLine(l), c), true
}

// checkObject validates a custom resource against its CRD.
func (a *analysis) checkObject(d *docInfo, c *engine.CRD) {
	res, err := c.Validate(d.data, engine.ValidateOptions{})
	if err != nil {
		a.add(a.docStart(d), SeverityError, err.Error())
		return
	}
	pos := res.Positions()
	if res.DecodeError != "" {
		a.add(a.located(d, pos.DecodeError), SeverityError, res.DecodeError)
	}
	for i, e := range res.Errors {
		if a.full() {
			continue
		}
		var p engine.Position
		if i < len(pos.Errors) {
			p = pos.Errors[i]
		}
		a.add(a.located(d, p), SeverityError, e.Error())
	}
	for i, w := range res.Warnings {
		if a.full() {
			continue
		}
		var p engine.Position
		if i < len(pos.Warnings) {
			p = pos.Warnings[i]
		}
		a.add(a.located(d, p), SeverityWarning, w)
	}
}

// crdKey is a CRD's group and kind.
type crdKey struct{ group, kind string }

func keyOf(c *engine.CRD) crdKey {
	def := c.Definition()
	return crdKey{def.Spec.Group, def.Spec.Names.Kind}
}
