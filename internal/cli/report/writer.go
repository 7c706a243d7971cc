package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/crdlab/crdlab/internal/cli/inputs"
	"github.com/crdlab/crdlab/wire"
)

// Writer writes a run's report entry by entry, as inputs.Catalog.StreamInputs
// gives them: Begin, Entry for each entry in order, End. Each error's
// message is rendered (inputs.Result.Message) only while it is written, and
// no entry is kept after Entry returns, except by junit, whose counts come
// before its cases: it keeps the entries without their stored objects and
// writes them at End. The bytes are Write's.
type Writer interface {
	// Begin starts a report of total entries.
	Begin(total int) error
	// Entry writes one entry.
	Entry(r *inputs.Result) error
	// End writes what follows the entries (the summary) and flushes.
	End(s wire.RunSummary) error
	// Stop ends a run stopped by an input error after the entries
	// written so far (s counts them): the one-document formats (json,
	// yaml, junit) are closed as End closes them, so that the output
	// stays parseable; the streaming ones are flushed without a summary,
	// the error and the exit status saying the run stopped.
	Stop(s wire.RunSummary) error
}

// NewWriter returns the Writer of format (one of Formats, any case).
func NewWriter(format string, stdout, stderr io.Writer, opts Options) (Writer, error) {
	buffered := func() *bufio.Writer { return bufio.NewWriterSize(stdout, 64<<10) }
	switch strings.ToLower(format) {
	case "text":
		// Unbuffered: kubectl's lines interleave on stdout and stderr.
		return &textWriter{stdout: stdout, stderr: stderr, opts: opts}, nil
	case "json":
		return &jsonWriter{w: buffered(), kube: opts.KubeVersion}, nil
	case "jsonl":
		return &jsonlWriter{w: buffered(), opts: opts}, nil
	case "junit":
		return &junitWriter{w: buffered(), opts: opts}, nil
	case "tap":
		return &tapWriter{w: buffered(), opts: opts}, nil
	case "github":
		return &githubWriter{w: buffered(), opts: opts}, nil
	case "yaml":
		return &yamlWriter{w: buffered(), kube: opts.KubeVersion}, nil
	}
	return nil, fmt.Errorf("unknown output format %q (want one of %s)", format, strings.Join(Formats, ", "))
}

// writeEntryJSON writes r as json.Marshal (indent false) or
// json.MarshalIndent(r, prefix, "  ") writes its RunEntry, the errors one
// at a time with their messages rendered.
func writeEntryJSON(w io.Writer, r *inputs.Result, prefix string, indent bool) error {
	marshal := func(v interface{}, prefix string) ([]byte, error) {
		if indent {
			return json.MarshalIndent(v, prefix, "  ")
		}
		return json.Marshal(v)
	}
	e := r.RunEntry
	errs := e.Errors
	e.Errors = nil
	b, err := marshal(&e, prefix)
	if err != nil {
		return err
	}
	if errs == nil {
		_, err = w.Write(b)
		return err
	}
	// "file" always comes first: the errors key is after a comma at the
	// entry's level (a string holds no unescaped quote, and the fields
	// before errors hold no "errors" key).
	key := []byte(`,"errors":null`)
	if indent {
		key = []byte(",\n" + prefix + `  "errors": null`)
	}
	at := bytes.Index(b, key)
	if at < 0 {
		return fmt.Errorf("report: no errors key in the entry of %s", where(&r.RunEntry))
	}
	head := len(key) - len("null")
	if _, err := w.Write(b[:at+head]); err != nil {
		return err
	}
	if len(errs) == 0 {
		io.WriteString(w, "[]")
	} else {
		io.WriteString(w, "[")
		for i := range errs {
			le := errs[i]
			le.Message = r.Message(i)
			eb, err := marshal(&le, prefix+"    ")
			if err != nil {
				return err
			}
			if i > 0 {
				io.WriteString(w, ",")
			}
			if indent {
				io.WriteString(w, "\n"+prefix+"    ")
			}
			if _, err := w.Write(eb); err != nil {
				return err
			}
		}
		if indent {
			io.WriteString(w, "\n"+prefix+"  ")
		}
		io.WriteString(w, "]")
	}
	_, err = w.Write(b[at+len(key):])
	return err
}

// jsonWriter writes json.MarshalIndent(report, "", "  ") and a newline.
type jsonWriter struct {
	w    *bufio.Writer
	n    int
	kube string // the report's kubeVersion
}

func (j *jsonWriter) Begin(int) error {
	io.WriteString(j.w, "{\n")
	if j.kube != "" {
		b, err := json.Marshal(j.kube)
		if err != nil {
			return err
		}
		fmt.Fprintf(j.w, "  \"kubeVersion\": %s,\n", b)
	}
	_, err := io.WriteString(j.w, "  \"results\": [")
	return err
}

func (j *jsonWriter) Entry(r *inputs.Result) error {
	sep := ",\n    "
	if j.n == 0 {
		sep = "\n    "
	}
	j.n++
	io.WriteString(j.w, sep)
	return writeEntryJSON(j.w, r, "    ", true)
}

func (j *jsonWriter) End(s wire.RunSummary) error {
	if j.n > 0 {
		io.WriteString(j.w, "\n  ")
	}
	b, err := json.MarshalIndent(s, "  ", "  ")
	if err != nil {
		return err
	}
	fmt.Fprintf(j.w, "],\n  \"summary\": %s\n}\n", b)
	return j.w.Flush()
}

// jsonlWriter writes one compact entry per line (json.Encoder's).
type jsonlWriter struct {
	w    *bufio.Writer
	opts Options
}

func (j *jsonlWriter) Begin(int) error { return nil }

func (j *jsonlWriter) Entry(r *inputs.Result) error {
	if err := writeEntryJSON(j.w, r, "", false); err != nil {
		return err
	}
	return j.w.WriteByte('\n')
}

func (j *jsonWriter) Stop(s wire.RunSummary) error  { return j.End(s) }
func (j *jsonlWriter) Stop(wire.RunSummary) error   { return j.w.Flush() }
func (y *yamlWriter) Stop(s wire.RunSummary) error  { return y.End(s) }
func (j *junitWriter) Stop(s wire.RunSummary) error { return j.End(s) }
func (t *tapWriter) Stop(wire.RunSummary) error     { return t.w.Flush() }
func (g *githubWriter) Stop(wire.RunSummary) error  { return g.w.Flush() }

// Stop: the text writer is unbuffered, its lines are out already.
func (t *textWriter) Stop(wire.RunSummary) error { return nil }

func (j *jsonlWriter) End(s wire.RunSummary) error {
	if j.opts.Summary {
		if err := json.NewEncoder(j.w).Encode(struct {
			KubeVersion string          `json:"kubeVersion,omitempty"`
			Summary     wire.RunSummary `json:"summary"`
		}{j.opts.KubeVersion, s}); err != nil {
			return err
		}
	}
	return j.w.Flush()
}

// yamlWriter writes yaml.Marshal(report): each entry marshalled as the
// only item of "results", whose items sit at the same column as in the
// whole document (the emitter folds long strings by column), its errors one
// at a time in the same way.
type yamlWriter struct {
	w    *bufio.Writer
	n    int
	kube string // the report's kubeVersion
}

func (y *yamlWriter) Begin(int) error {
	if y.kube == "" {
		return nil
	}
	b, err := yaml.Marshal(struct {
		KubeVersion string `json:"kubeVersion"`
	}{y.kube})
	if err != nil {
		return err
	}
	_, err = y.w.Write(b)
	return err
}

type yamlResults[T any] struct {
	Results []T `json:"results"`
}

type yamlErrors struct {
	Errors []wire.LocatedError `json:"errors"`
}

func (y *yamlWriter) Entry(r *inputs.Result) error {
	e := r.RunEntry
	errs := e.Errors
	if errs != nil {
		e.Errors = []wire.LocatedError{}
	}
	b, err := yaml.Marshal(yamlResults[wire.RunEntry]{[]wire.RunEntry{e}})
	if err != nil {
		return err
	}
	b = bytes.TrimPrefix(b, []byte("results:\n"))
	if y.n == 0 {
		io.WriteString(y.w, "results:\n")
	}
	y.n++
	// The entry's own errors key: its items' keys are indented by two
	// spaces, deeper keys and block scalars' lines by more.
	key := []byte("\n  errors: []\n")
	at := bytes.Index(b, key)
	if len(errs) == 0 || at < 0 {
		_, err = y.w.Write(b)
		return err
	}
	y.w.Write(b[:at+1])
	io.WriteString(y.w, "  errors:\n")
	for i := range errs {
		le := errs[i]
		le.Message = r.Message(i)
		eb, err := yaml.Marshal(yamlResults[yamlErrors]{[]yamlErrors{{[]wire.LocatedError{le}}}})
		if err != nil {
			return err
		}
		y.w.Write(bytes.TrimPrefix(eb, []byte("results:\n- errors:\n")))
	}
	_, err = y.w.Write(b[at+len(key):])
	return err
}

func (y *yamlWriter) End(s wire.RunSummary) error {
	if y.n == 0 {
		io.WriteString(y.w, "results: []\n")
	}
	b, err := yaml.Marshal(struct {
		Summary wire.RunSummary `json:"summary"`
	}{s})
	if err != nil {
		return err
	}
	y.w.Write(b)
	return y.w.Flush()
}
