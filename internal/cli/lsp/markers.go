package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
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
	stdout, stderr, code, err := runCommand(ctx, dir, command, args)
	if ctx.Err() == context.Canceled {
		return // a newer run replaced it
	}
	var diags []markersDiagnostic
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		s.logMessage(fmt.Sprintf("crdlab lsp: markersCommand %q in %s: no answer after %v", command, dir, markersTimeout))
		return
	case err != nil:
		// the command is missing or cannot run: said once
		s.mu.Lock()
		warned := s.markersWarned
		s.markersWarned = true
		s.mu.Unlock()
		if !warned {
			s.showMessage(MessageTypeWarning, fmt.Sprintf("crdlab lsp: markersCommand %q: %v (install it: go install ./cmd/crdlab-markers in crdlab's markers/ module)", command, err))
		}
		return
	case code != 0 && code != 1:
		s.logMessage(fmt.Sprintf("crdlab lsp: markersCommand %q in %s: exit status %d: %s", command, dir, code, strings.TrimSpace(string(stderr))))
		return
	}
	if jerr := json.Unmarshal(stdout, &diags); jerr != nil {
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

// runCommand runs command with args in dir and returns its output and
// exit status; err is about starting it (not found, not executable).
// The process is killed when ctx ends. It uses os.StartProcess, not
// os/exec, which would add about 140 KB to bin/crdlab.
func runCommand(ctx context.Context, dir, command string, args []string) (stdout, stderr []byte, code int, err error) {
	path, err := lookPath(command)
	if err != nil {
		return nil, nil, 0, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, nil, 0, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, nil, 0, err
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		outR.Close()
		outW.Close()
		errR.Close()
		errW.Close()
		return nil, nil, 0, err
	}
	p, err := os.StartProcess(path, append([]string{command}, args...), &os.ProcAttr{Dir: dir, Files: []*os.File{devnull, outW, errW}})
	devnull.Close()
	outW.Close()
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, nil, 0, err
	}
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			// its children (go list) may hold the pipes open: closing
			// them ends the reads now
			_ = p.Kill()
			outR.Close()
			errR.Close()
		case <-done:
		}
	}()
	errc := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(errR, 1<<16))
		_, _ = io.Copy(io.Discard, errR)
		errR.Close()
		errc <- b
	}()
	stdout, _ = io.ReadAll(io.LimitReader(outR, 64<<20))
	_, _ = io.Copy(io.Discard, outR)
	outR.Close()
	stderr = <-errc
	st, werr := p.Wait()
	close(done)
	if werr != nil {
		return stdout, stderr, 0, werr
	}
	return stdout, stderr, st.ExitCode(), nil
}

// lookPath finds command: a path (with a separator) as it is, a name in
// $PATH.
func lookPath(command string) (string, error) {
	if strings.ContainsRune(command, filepath.Separator) || strings.ContainsRune(command, '/') {
		if fi, err := os.Stat(command); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("%s: not an executable file", command)
		}
		return command, nil
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, command)
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found in $PATH", command)
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
