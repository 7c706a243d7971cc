package engine

// Reading a stored custom resource at a version: what the storage codec of
// customresource_handler.go (crdConversionRESTOptionsGetter) does with the
// bytes in etcd when a served version's endpoint reads them — the
// schemaCoercingDecoder at the stored version (pruning, dropping invalid
// metadata, repairing the generation), the unstructuredDefaulter at the
// stored version, and the schemaCoercingConverter: the CRD's converter
// (conversion.strategy None: nopConverter, which rewrites apiVersion after
// crConverter checked both versions are the CRD's) followed by pruning and
// ObjectMeta coercion at the target version. No defaulting happens at the
// target version on read.

import (
	"fmt"
	"sort"
	"strconv"

	"github.com/crdlab/crdlab/internal/defaulting"
	"github.com/crdlab/crdlab/internal/pruning"
	"github.com/crdlab/crdlab/internal/unstructured"
)

// StoredRead is a stored object as the API server reads it at one version.
type StoredRead struct {
	// Object is the object the endpoint works with (what a get returns
	// before the response encoding, and the old object of an update); nil
	// when Error is set.
	Object map[string]interface{}
	// Pruned lists the paths of the stored fields that reading drops:
	// unknown to the stored version's schema, then to the target version's.
	Pruned []string
	// Defaulted lists the paths that defaulting at the stored version sets
	// or changes on read.
	Defaulted []string
	// Error is the API server's error when the object cannot be read (it
	// does not decode, or the converter refuses its version).
	Error string
}

// ReadStored reads a stored object (JSON or YAML, at the version its
// apiVersion names) at version, as the storage codec of that version's
// endpoint does; version "" is the storage version. Conversion strategy
// Webhook is not modelled: the conversion is the None strategy's (only
// apiVersion changes). The error is only for misuse (an invalid CRD, a
// version that is not the CRD's).
func (c *CRD) ReadStored(stored []byte, version string) (*StoredRead, error) {
	if len(c.errs) > 0 {
		return nil, fmt.Errorf("CustomResourceDefinition %q is invalid: %v", c.def.Metadata.Name, c.errs.ToAggregate())
	}
	if c.buildErr != nil {
		return nil, c.buildErr
	}
	if version == "" {
		version = c.storage
	}
	v, ok := c.validators[version]
	if !ok {
		return nil, fmt.Errorf("version %q is not a served or storage version of CustomResourceDefinition %q", version, c.def.Metadata.Name)
	}
	return c.readStored(stored, v, true), nil
}

// readStored is ReadStored at v's version; track computes Pruned and
// Defaulted (the update path, decodeStored, does not need them).
func (c *CRD) readStored(stored []byte, v *Validator, track bool) (out *StoredRead) {
	version := v.version
	out = &StoredRead{Pruned: []string{}, Defaulted: []string{}}
	defer func() {
		if r := recover(); r != nil {
			out.Object = nil
			out.Error = fmt.Sprintf("crdlab: internal error reading the stored object: %v", r)
		}
	}()
	body := toJSONBody(stored)
	if body.err != nil {
		out.Error = fmt.Sprintf("error converting YAML to JSON: %v", body.err)
		return out
	}
	if _, err := body.interpret(); err != nil {
		out.Error = err.Error()
		return out
	}
	val, _, err := body.decode(false)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	obj, _ := val.(map[string]interface{})
	content := contentGVK(obj)
	if content.Kind == "" {
		out.Error = fmt.Sprintf("Object 'Kind' is missing in '%s'", body.text())
		return out
	}
	sh := v.shared
	ours := content.Group == sh.group && content.Kind == sh.kind
	if track && ours && !sh.preserveUnknownFields {
		out.Pruned = append(out.Pruned, pruning.Prune(unstructured.DeepCopy(obj).(map[string]interface{}), sh.structural[content.Version], true)...)
	}
	// The decoder: pruning and metadata repair at the stored version.
	if _, err := v.coerce(obj, true); err != nil {
		out.Error = err.Error()
		return out
	}
	if ours {
		var before map[string]interface{}
		if track {
			before = unstructured.DeepCopy(obj).(map[string]interface{})
		}
		defaulting.Default(obj, sh.structural[content.Version])
		if track {
			out.Defaulted = changedPaths(before, obj, "")
		}
	}
	// The converter: crConverter checks both versions, nopConverter
	// rewrites apiVersion.
	if content.Group != sh.group {
		out.Error = fmt.Sprintf("%s/%s, Kind=%s is unstructured and is not suitable for converting to %q", content.Group, content.Version, content.Kind, sh.group+"/"+version)
		return out
	}
	if !c.hasVersion(content.Version) {
		out.Error = fmt.Sprintf("request to convert CR from an invalid group/version: %s", content.groupVersion())
		return out
	}
	if content.Version != version {
		obj["apiVersion"] = sh.group + "/" + version
		if track && ours && !sh.preserveUnknownFields {
			out.Pruned = append(out.Pruned, pruning.Prune(unstructured.DeepCopy(obj).(map[string]interface{}), sh.structural[version], true)...)
		}
		if _, err := v.coerce(obj, false); err != nil {
			out.Error = err.Error()
			return out
		}
	}
	sort.Strings(out.Pruned)
	out.Object = obj
	return out
}

// StorageVersion returns the name of the CRD's storage version.
func (c *CRD) StorageVersion() string {
	for _, v := range c.def.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// hasVersion reports whether name is one of spec.versions (the converter's
// valid versions).
func (c *CRD) hasVersion(name string) bool {
	for _, v := range c.def.Spec.Versions {
		if v.Name == name {
			return true
		}
	}
	return false
}

// changedPaths returns the sorted paths (prune's notation) of the values
// of after that are absent from before or differ from it; a new object
// or list is reported at its own path.
func changedPaths(before, after interface{}, path string) []string {
	var out []string
	switch a := after.(type) {
	case map[string]interface{}:
		b, ok := before.(map[string]interface{})
		if !ok {
			return []string{path}
		}
		for k, av := range a {
			p := k
			if path != "" {
				p = path + "." + k
			}
			bv, ok := b[k]
			if !ok {
				out = append(out, p)
				continue
			}
			out = append(out, changedPaths(bv, av, p)...)
		}
	case []interface{}:
		b, ok := before.([]interface{})
		if !ok || len(b) != len(a) {
			return []string{path}
		}
		for i := range a {
			out = append(out, changedPaths(b[i], a[i], path+"["+strconv.Itoa(i)+"]")...)
		}
	default:
		if before != after {
			return []string{path}
		}
	}
	sort.Strings(out)
	return out
}
