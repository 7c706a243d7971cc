package apply

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/wire"
)

// Wire returns the report as the WebAssembly module's "apply" op answers
// it: each step as `crdlab apply -o json` prints it (object,
// managedFields, conflict, error, code, warnings) and the owners of the
// stored object's fields (Ownership).
func (r *Report) Wire() (*wire.ApplyResult, error) {
	out := &wire.ApplyResult{Steps: make([]wire.ApplyStepResult, len(r.Steps))}
	for i, s := range r.Steps {
		b, err := json.Marshal(s)
		if err != nil {
			return nil, err
		}
		var ws wire.ApplyStepResult
		if err := json.Unmarshal(b, &ws); err != nil {
			return nil, fmt.Errorf("step %d: %v", i+1, err)
		}
		owners, err := r.Ownership(i)
		if err != nil {
			return nil, fmt.Errorf("step %d: the owners: %v", i+1, err)
		}
		ws.Owners = make([]wire.FieldOwner, len(owners))
		for j, o := range owners {
			ws.Owners[j] = wire.FieldOwner{Path: o.Path, Value: o.Value, Owners: o.Owners}
		}
		out.Steps[i] = ws
	}
	return out, nil
}
