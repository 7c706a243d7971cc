package inputs

import "github.com/crdlab/crdlab/wire"

// The whole-run entry points the tests compare the CLI's path (Scan, then
// StreamInputs) with: every document read first (Read), every CRD compiled
// (AddAll), then the shared stream. No command uses them.

// load reads the CRD inputs (crdArgs: their non-CRD documents are ignored,
// so that a directory of CRDs may hold other files) and the inputs (args),
// compiles every CRD of both once, in parallel on jobs goroutines (0: the
// number of CPUs), and returns the catalogue and the documents of args.
func (r *Reader) load(crdArgs, args []string, jobs int) (*Catalog, []Document, error) {
	crdDocs, err := r.Read(crdArgs, "CRD")
	if err != nil {
		return nil, nil, err
	}
	docs, err := r.Read(args, "objects")
	if err != nil {
		return nil, nil, err
	}
	var defs []Document
	for _, d := range crdDocs {
		if d.IsCRD() {
			defs = append(defs, d)
		}
	}
	for _, d := range docs {
		if d.IsCRD() {
			defs = append(defs, d)
		}
	}
	c := New()
	if err := c.AddAll(defs, jobs); err != nil {
		return nil, nil, err
	}
	return c, docs, nil
}

// size returns the number of CRDs in the catalogue.
func (c *Catalog) size() int { return len(c.order) }

// run validates the documents: CRDs (which must have been added to the
// catalogue) are linted, objects validated against their CRD, the rest
// skipped. The entries are in the documents' order whatever Jobs is, with
// their messages rendered; streamDocs writes a large run without holding it.
func (c *Catalog) run(docs []Document, opts Options) *wire.RunReport {
	rep := &wire.RunReport{Results: make([]wire.RunEntry, 0, len(docs))}
	rep.Summary, _ = c.streamDocs(docs, opts, func(_ int, r *Result) error {
		rep.Results = append(rep.Results, r.Rendered())
		return nil
	})
	return rep
}

// streamDocs validates the documents as run does and gives each entry to emit
// in the documents' order, on the calling goroutine, as soon as it and
// those before it are done; emit must not keep r after it returns. At
// most a few entries per job wait for an earlier one. An error of emit
// stops the run (the documents not yet started are not validated) and is
// returned; the summary counts the entries emitted.
func (c *Catalog) streamDocs(docs []Document, opts Options, emit func(i int, r *Result) error) (wire.RunSummary, error) {
	return c.stream(len(docs), func(i int) (*Document, error) { return &docs[i], nil }, opts,
		func(i int, d *Document, r *Result) error {
			return emit(i, r)
		})
}
