package inputs

// AddAll adds CRD documents as Add does, compiling them in parallel; the
// first error in the documents' order is returned.
func (c *Catalog) AddAll(defs []Document, jobs int) error {
	// Compile every distinct document in parallel into a scratch catalogue
	// each, then add them in order (Add shares identical duplicates).
	type compiled struct {
		e   *Entry
		err error
	}
	out := make([]compiled, len(defs))
	var todo []int
	seen := map[string]bool{}
	for i, d := range defs {
		key := d.Name + "\x00" + string(d.Data)
		if !seen[key] {
			seen[key] = true
			todo = append(todo, i)
		}
	}
	parallel(len(todo), jobs, func(k int) {
		i := todo[k]
		scratch := New()
		scratch.Compiler, scratch.CRDFieldValidation, scratch.KubeVersion, scratch.Share = c.Compiler, c.CRDFieldValidation, c.KubeVersion, c.Share
		e, err := scratch.Add(defs[i])
		out[i] = compiled{e, err}
	})
	for i, d := range defs {
		if out[i].err != nil {
			return out[i].err
		}
		if out[i].e == nil {
			// A duplicate of an earlier document: shared.
			if _, err := c.Add(d); err != nil {
				return err
			}
			continue
		}
		if err := c.insert(out[i].e); err != nil {
			return err
		}
	}
	return nil
}
