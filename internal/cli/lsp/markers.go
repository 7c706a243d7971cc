package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// Diagnostics of Go files from kubebuilder markers: with the
// markersCommand option (e.g. "crdlab-markers", the nested module
// github.com/crdlab/crdlab/markers), opening or saving a .go file runs
// the command on the file's package directory in the background and
// publishes its diagnostics on each Go file of the package. The command
// generates the package's CRDs with controller-tools and maps crdlab's
// verdict back to the markers; it is a separate binary so that
// controller-tools and the k8s.io modules stay out of this module.

// markersTimeout bounds one run of the markers command.
const markersTimeout = 2 * time.Minute

// markersDebounce is the delay between a save and the run.
const markersDebounce = 200 * time.Millisecond

// markersRun is the markers command's state for one package directory.
type markersRun struct {
	gen       int
	timer     *time.Timer
	cancel    context.CancelFunc
	published map[string]bool // the URIs whose diagnostics the last run published
}

// markersDiagnostic is one entry of the command's -o json output.
type markersDiagnostic struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Severity  string `json:"severity"`
	Message   string `json:"message"`
}

func isGoURI(uri string) bool { return strings.HasSuffix(uri, ".go") }

// scheduleMarkersLocked (s.mu held) runs the markers command on the
// package directory of a Go document after the debounce, cancelling the
// run pending or running there. Without markersCommand it does nothing.
func (s *Server) scheduleMarkersLocked(uri string) {
	cmd := s.opts.MarkersCommand
	path, ok := uriPath(uri)
	if cmd == "" || s.closed || !ok {
		return
	}
	dir := filepath.Dir(path)
	if s.markers == nil {
		s.markers = map[string]*markersRun{}
	}
	r := s.markers[dir]
	if r == nil {
		r = &markersRun{published: map[string]bool{}}
		s.markers[dir] = r
	}
	r.gen++
	gen := r.gen
	if r.timer != nil && r.timer.Stop() {
		s.wg.Done()
	}
	if r.cancel != nil {
		r.cancel()
		r.cancel = nil
	}
	s.wg.Add(1)
	r.timer = time.AfterFunc(markersDebounce, func() {
		defer s.wg.Done()
		s.runMarkers(dir, r, gen)
	})
}

// stopMarkersLocked (s.mu held) stops every pending and running run.
func (s *Server) stopMarkersLocked() {
	for _, r := range s.markers {
		if r.timer != nil && r.timer.Stop() {
			s.wg.Done()
		}
		if r.cancel != nil {
			r.cancel()
		}
	}
}

// runMarkers runs the markers command in dir and publishes its
// diagnostics, unless a newer run was scheduled.
func (s *Server) runMarkers(dir string, r *markersRun, gen int) {
	s.mu.Lock()
	if r.gen != gen || s.closed {
		s.mu.Unlock()
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), markersTimeout)
	r.cancel = cancel
	command, kube := s.opts.MarkersCommand, s.kubeVersionLocked()
	s.mu.Unlock()
	defer cancel()

	args := []string{"-o", "json"}
	if kube != "" {
		args = append(args, "--kube-version", kube)
	}
	args = append(args, ".")
	cmd := exec.CommandContext(ctx, command, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() == context.Canceled {
		return // a newer run replaced it
	}
	var exit *exec.ExitError
	var diags []markersDiagnostic
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		s.logMessage(fmt.Sprintf("crdlab lsp: markersCommand %q in %s: no answer after %v", command, dir, markersTimeout))
		return
	case err != nil && !errors.As(err, &exit):
		// the command is missing or cannot run: said once
		s.mu.Lock()
		warned := s.markersWarned
		s.markersWarned = true
		s.mu.Unlock()
		if !warned {
			s.showMessage(MessageTypeWarning, fmt.Sprintf("crdlab lsp: markersCommand %q: %v (install it: go install ./cmd/crdlab-markers in crdlab's markers/ module)", command, err))
		}
		return
	case err != nil && exit.ExitCode() != 1:
		s.logMessage(fmt.Sprintf("crdlab lsp: markersCommand %q in %s: %v: %s", command, dir, err, strings.TrimSpace(stderr.String())))
		return
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &diags); jerr != nil {
		s.logMessage(fmt.Sprintf("crdlab lsp: markersCommand %q in %s: reading its output: %v", command, dir, jerr))
		return
	}
	byURI := map[string][]Diagnostic{}
	lines := map[string][]string{}
	for _, d := range diags {
		file := d.File
		if file == "" {
			continue
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		if lines[file] == nil {
			data, _ := os.ReadFile(file)
			lines[file] = strings.Split(string(data), "\n")
		}
		uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()
		sev := SeverityError
		if d.Severity == "warning" {
			sev = SeverityWarning
		}
		byURI[uri] = append(byURI[uri], Diagnostic{
			Range: Range{
				Start: utf16Position(lines[file], d.Line, d.Column),
				End:   utf16Position(lines[file], max(d.EndLine, d.Line), max(d.EndColumn, d.Column)),
			},
			Severity: sev, Source: source, Message: clipMessage(d.Message),
		})
	}
	s.mu.Lock()
	if r.gen != gen || s.closed {
		s.mu.Unlock()
		return
	}
	r.cancel = nil
	var clear []string
	for uri := range r.published {
		if byURI[uri] == nil {
			clear = append(clear, uri)
		}
	}
	r.published = map[string]bool{}
	for uri := range byURI {
		r.published[uri] = true
	}
	s.mu.Unlock()
	for _, uri := range clear {
		s.notify(PublishDiagnosticsParams{URI: uri, Diagnostics: []Diagnostic{}})
	}
	for uri, ds := range byURI {
		s.notify(PublishDiagnosticsParams{URI: uri, Diagnostics: ds})
	}
}

// utf16Position converts a 1-based line and byte column to a protocol
// position.
func utf16Position(lines []string, line, col int) Position {
	if line < 1 {
		return Position{}
	}
	if line > len(lines) {
		return Position{Line: line - 1}
	}
	text := lines[line-1]
	units := 0
	for i := 0; i < len(text) && i < col-1; {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
		i += size
	}
	return Position{Line: line - 1, Character: units}
}

// Message types of window/showMessage and window/logMessage.
const (
	MessageTypeWarning = 2
	MessageTypeLog     = 4
)

// ShowMessageParams is window/showMessage's and window/logMessage's.
type ShowMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

func (s *Server) showMessage(typ int, msg string) {
	s.message("window/showMessage", typ, msg)
}

func (s *Server) logMessage(msg string) {
	s.message("window/logMessage", MessageTypeLog, msg)
}

func (s *Server) message(method string, typ int, msg string) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn != nil {
		_ = conn.Notify(context.Background(), method, ShowMessageParams{Type: typ, Message: msg})
	}
}
