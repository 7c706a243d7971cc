package abi

import (
	"fmt"

	"github.com/crdlab/crdlab/upgrade"
	"github.com/crdlab/crdlab/wire"
)

// upgradeReport answers "upgrade": upgrade.Check, the report of `crdlab
// upgrade -o json`.
func upgradeReport(r *wire.Request) (interface{}, *wire.Error) {
	if e := kubeVersionOf(r); e != nil {
		return nil, e
	}
	if len(r.Sources) > len(r.Objects)+len(r.ObjectsBytes) {
		return nil, &wire.Error{Code: wire.CodeBadRequest, Message: fmt.Sprintf(`"sources" has %d names for %d objects`, len(r.Sources), len(r.Objects)+len(r.ObjectsBytes))}
	}
	objects := make([]upgrade.Object, 0, len(r.Objects)+len(r.ObjectsBytes))
	for _, o := range r.Objects {
		objects = append(objects, upgrade.Object{Data: []byte(o)})
	}
	for _, o := range r.ObjectsBytes {
		objects = append(objects, upgrade.Object{Data: o})
	}
	for i := range objects {
		objects[i].Source = fmt.Sprintf("objects[%d]", i)
		if i < len(r.Sources) {
			objects[i].Source = r.Sources[i]
		}
	}
	rep, err := upgrade.Check(pick(r.OldCRD, r.OldCRDBytes), pick(r.CRD, r.CRDBytes), objects,
		upgrade.Options{StoredVersions: r.StoredVersions, FailOnBreaking: r.FailOnBreaking, KubeVersion: r.KubeVersion})
	if err != nil {
		return nil, &wire.Error{Code: wire.CodeDecodeError, Message: err.Error()}
	}
	return rep, nil
}
