// Package upgrade answers "what happens if I apply this CRD over the one in
// the cluster": the API server's verdict on the CRD update, what the
// updated API server does with the objects already stored (reads, no-op
// updates, fresh creates, at the version each is stored at and at the new
// storage version), and a compatibility diff of the two CRDs' schemas for
// clients.
//
// The first two parts come from the engine running the API server's logic
// (engine.CompileCRDUpdate, engine.CRD.ReadStored, engine.Validator); the
// diff (Changes) is a classification of the schema change by rules of this
// package, and says so.
package upgrade

import (
	"encoding/json"
	"fmt"

	"github.com/crdlab/crdlab/engine"
	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/wire"
	"sigs.k8s.io/yaml"
)

// Object is one stored object: the bytes in the cluster (JSON or YAML), at
// the version its apiVersion names. Objects of another group or kind than
// the CRD's are reported as skipped (e.g. the Namespace of an example file).
type Object struct {
	// Source names the object in the report (e.g. a file name).
	Source string
	Data   []byte
}

// Options tunes Check.
type Options struct {
	// StoredVersions is the old CRD's status.storedVersions (see
	// engine.UpdateOptions); nil reads it from the old CRD.
	StoredVersions []string
	// FailOnBreaking makes a "breaking" schema change unsafe too.
	FailOnBreaking bool
	// KubeVersion is the Kubernetes release whose API server is reproduced
	// (engine.CompileOptions.KubeVersion); "" is the default. An
	// unsupported one makes the CRD update invalid (an internal error
	// naming the supported releases).
	KubeVersion string
	// Share is engine.CompileOptions.Share.
	Share *engine.CompileShare
}

// Check decodes two CustomResourceDefinitions (one each) and reports the
// update of oldCRD to newCRD over the stored objects. The error is only
// about decoding the CRDs.
func Check(oldCRD, newCRD []byte, objects []Object, opts Options) (*wire.UpgradeReport, error) {
	oldDefs, err := crd.Decode(oldCRD, "")
	if err != nil {
		return nil, fmt.Errorf("old CRD: %v", err)
	}
	newDefs, err := crd.Decode(newCRD, "")
	if err != nil {
		return nil, fmt.Errorf("new CRD: %v", err)
	}
	if len(oldDefs) != 1 {
		return nil, fmt.Errorf("old CRD: expected exactly one CustomResourceDefinition, found %d", len(oldDefs))
	}
	if len(newDefs) != 1 {
		return nil, fmt.Errorf("new CRD: expected exactly one CustomResourceDefinition, found %d", len(newDefs))
	}
	return CheckCRDs(oldDefs[0], newDefs[0], objects, opts), nil
}

// CheckCRDs is Check on decoded CRDs; they are not modified.
func CheckCRDs(oldDef, newDef *crd.CustomResourceDefinition, objects []Object, opts Options) *wire.UpgradeReport {
	uo := engine.UpdateOptions{StoredVersions: opts.StoredVersions, KubeVersion: opts.KubeVersion, Share: opts.Share}
	stored := engine.AsStored(oldDef, uo)
	updated := engine.CompileCRDUpdate(newDef, oldDef, uo)
	old, err := engine.CompileCRDWithOptions(oldDef, engine.CompileOptions{KubeVersion: opts.KubeVersion, Share: opts.Share})
	if err != nil {
		// CompileCRDUpdate reported the same error as the update's.
		old = engine.CompileCRD(oldDef)
	}
	rep := &wire.UpgradeReport{
		Safe:              true,
		CRDUpdate:         engine.NewReport(updated, nil).CRD,
		OldStorageVersion: old.StorageVersion(),
		NewStorageVersion: updated.StorageVersion(),
		StoredVersions:    append([]string{}, stored.Status.StoredVersions...),
		Objects:           []wire.StoredObjectReport{},
		Changes:           Diff(oldDef, newDef),
	}
	if len(rep.CRDUpdate.Errors) > 0 {
		rep.Safe = false
	}
	for _, o := range objects {
		or := checkObject(old, updated, o)
		if !or.Safe {
			rep.Safe = false
		}
		rep.Objects = append(rep.Objects, or)
	}
	if opts.FailOnBreaking {
		for _, c := range rep.Changes {
			if c.Severity == SeverityBreaking {
				rep.Safe = false
			}
		}
	}
	return rep
}

// checkObject reads one stored object under the updated CRD at its stored
// version (when still a version of the CRD, else the read fails as the
// converter fails) and at the new storage version.
func checkObject(old, updated *engine.CRD, o Object) wire.StoredObjectReport {
	or := wire.StoredObjectReport{Source: o.Source, Safe: true, Reads: []wire.StoredReadReport{}}
	head := typeMeta(o.Data)
	or.Name = head.Metadata.Name
	if head.Metadata.Namespace != "" {
		or.Name = head.Metadata.Namespace + "/" + or.Name
	}
	or.StoredVersion = versionOfAPIVersion(head.APIVersion)
	if def := updated.Definition(); head.APIVersion != "" && head.Kind != "" &&
		(groupOf(head.APIVersion) != def.Spec.Group || head.Kind != def.Spec.Names.Kind) {
		or.Skipped = fmt.Sprintf("%s %s is not a %s of %s", head.APIVersion, head.Kind, def.Spec.Names.Kind, def.Spec.Group)
		return or
	}
	if len(updated.Errors()) > 0 {
		// The update is rejected: the objects stay under the old CRD.
		return or
	}
	versions := []string{}
	if servedOrStorage(updated, or.StoredVersion) {
		versions = append(versions, or.StoredVersion)
	}
	if sv := updated.StorageVersion(); sv != "" && sv != or.StoredVersion {
		versions = append(versions, sv)
	}
	// What the old CRD showed: the read at the stored version.
	var before *engine.StoredRead
	if servedOrStorage(old, or.StoredVersion) {
		before, _ = old.ReadStored(o.Data, or.StoredVersion)
		if before != nil && before.Error != "" {
			before = nil
		}
	}
	for _, v := range versions {
		rr := readAt(updated, before, o.Data, v)
		if rr.DecodeError != "" || len(rr.Pruned) > 0 || (rr.NoOpUpdate != nil && !rr.NoOpUpdate.Allowed) {
			or.Safe = false
		}
		or.Reads = append(or.Reads, rr)
	}
	return or
}

// readAt reads the object at version v of the updated CRD and writes it
// back; before is the old CRD's read (nil when it had none).
func readAt(updated *engine.CRD, before *engine.StoredRead, data []byte, v string) wire.StoredReadReport {
	rr := wire.StoredReadReport{Version: v, Pruned: []string{}, Defaulted: []string{}}
	read, err := updated.ReadStored(data, v)
	if err != nil {
		rr.DecodeError = err.Error()
		return rr
	}
	if read.Error != "" {
		rr.DecodeError = read.Error
		return rr
	}
	rr.Pruned = minus(read.Pruned, before, func(r *engine.StoredRead) []string { return r.Pruned })
	rr.Defaulted = minus(read.Defaulted, before, func(r *engine.StoredRead) []string { return r.Defaulted })
	val, err := updated.Validator(v)
	if err != nil {
		// Not served: nothing can write through this version.
		return rr
	}
	body, err := json.Marshal(read.Object)
	if err != nil {
		rr.DecodeError = err.Error()
		return rr
	}
	// The request body is the object as read; the old object is the stored
	// one, which the handler reads at v as above.
	if res, err := val.Validate(body, engine.ValidateOptions{Old: data}); err == nil {
		rr.NoOpUpdate = requestReport(updated, res)
	}
	fresh := map[string]interface{}{}
	for k, x := range read.Object {
		fresh[k] = x
	}
	if m, ok := read.Object["metadata"].(map[string]interface{}); ok {
		meta := map[string]interface{}{}
		for k, x := range m {
			switch k {
			case "resourceVersion", "uid", "creationTimestamp", "generation", "managedFields":
			default:
				meta[k] = x
			}
		}
		fresh["metadata"] = meta
	}
	if cb, err := json.Marshal(fresh); err == nil {
		if res, err := val.Validate(cb, engine.ValidateOptions{}); err == nil {
			rr.Create = requestReport(updated, res)
		}
	}
	return rr
}

func requestReport(c *engine.CRD, res *engine.Result) *wire.RequestReport {
	r := engine.NewReport(c, res).Object
	return &wire.RequestReport{Allowed: res.Valid(), DecodeError: r.DecodeError, Errors: r.Errors, Warnings: r.Warnings}
}

// minus returns the paths of now that the old read did not report.
func minus(now []string, before *engine.StoredRead, get func(*engine.StoredRead) []string) []string {
	out := []string{}
	had := map[string]bool{}
	if before != nil {
		for _, p := range get(before) {
			had[p] = true
		}
	}
	for _, p := range now {
		if !had[p] {
			out = append(out, p)
		}
	}
	return out
}

func servedOrStorage(c *engine.CRD, version string) bool {
	for _, v := range c.Definition().Spec.Versions {
		if v.Name == version {
			return v.Served || v.Storage
		}
	}
	return false
}

type objectHead struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
}

// typeMeta reads apiVersion, name and namespace (best effort: a broken
// object is reported by ReadStored).
func typeMeta(data []byte) objectHead {
	var h objectHead
	_ = yaml.Unmarshal(data, &h)
	return h
}

func groupOf(apiVersion string) string {
	for i := len(apiVersion) - 1; i >= 0; i-- {
		if apiVersion[i] == '/' {
			return apiVersion[:i]
		}
	}
	return ""
}

func versionOfAPIVersion(apiVersion string) string {
	for i := len(apiVersion) - 1; i >= 0; i-- {
		if apiVersion[i] == '/' {
			return apiVersion[i+1:]
		}
	}
	return apiVersion
}
