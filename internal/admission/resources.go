package admission

import (
	"encoding/json"

	"github.com/crdlab/crdlab/engine/crd"
)

// CRDResources answers Resources from a set of CRDs, as the API server's
// REST mapper knows them once the CRDs are established: a CRD's versions
// are equivalent resources, its scope is its kind's; other kinds are
// built-in, cluster-scoped if ClusterScopedBuiltin says so.
type CRDResources []*crd.CustomResourceDefinition

// Equivalents lists the resources equivalent to r as the API server's CRD
// handler registers them: every version of the CRD whose group and plural
// are r's (served or not), for the status and scale subresources only the
// versions that have them, scale as autoscaling/v1 Scale.
func (cs CRDResources) Equivalents(r GVR, sub string) []Equivalent {
	for _, def := range cs {
		if def == nil || def.Spec.Group != r.Group || def.Spec.Names.Plural != r.Resource {
			continue
		}
		var out []Equivalent
		for _, v := range def.Spec.Versions {
			kind := GVK{Group: r.Group, Version: v.Name, Kind: def.Spec.Names.Kind}
			switch sub {
			case "":
			case "status":
				if v.Subresources == nil || v.Subresources.Status == nil {
					continue
				}
			case "scale":
				if v.Subresources == nil || v.Subresources.Scale == nil {
					continue
				}
				kind = GVK{Group: "autoscaling", Version: "v1", Kind: "Scale"}
			default:
				continue
			}
			out = append(out, Equivalent{Resource: GVR{Group: r.Group, Version: v.Name, Resource: r.Resource}, Kind: kind})
		}
		return out
	}
	return nil
}

// ParamScope tells whether objects of a param kind are namespaced.
func (cs CRDResources) ParamScope(apiVersion, kind string) bool {
	group, _, ok := cutGroup(apiVersion)
	for _, def := range cs {
		if def != nil && ok && def.Spec.Group == group && def.Spec.Names.Kind == kind {
			return def.Spec.Scope != "Cluster"
		}
	}
	return !ClusterScopedBuiltin(kind)
}

func cutGroup(apiVersion string) (group, version string, ok bool) {
	for i := len(apiVersion) - 1; i >= 0; i-- {
		if apiVersion[i] == '/' {
			return apiVersion[:i], apiVersion[i+1:], true
		}
	}
	return "", apiVersion, apiVersion != ""
}

// clusterScopedBuiltins are the built-in cluster-scoped kinds a paramKind may
// name.
var clusterScopedBuiltins = map[string]bool{"Namespace": true, "Node": true, "ClusterRole": true, "ClusterRoleBinding": true,
	"CustomResourceDefinition": true, "StorageClass": true, "PersistentVolume": true, "PriorityClass": true, "IngressClass": true}

// ClusterScopedBuiltin reports whether kind is a built-in cluster-scoped
// kind.
func ClusterScopedBuiltin(kind string) bool { return clusterScopedBuiltins[kind] }

// ObjectRequest completes req (its operation, user, options and, when
// keepNameNS, its name and namespace already set) for an object of kind
// apiVersion/kind stored as resource plural: obj and old are the object
// and the stored object as the API server holds them after validation.
// The name and namespace are obj's (old's for a DELETE), the namespace
// "default" for a namespaced kind without one, as kubectl sends it.
func ObjectRequest(req Request, apiVersion, kind, plural string, namespaced bool, obj, old map[string]interface{}, keepNameNS bool) Request {
	group, version, ok := cutGroup(apiVersion)
	if !ok {
		group, version = "", apiVersion
	}
	req.Kind = GVK{Group: group, Version: version, Kind: kind}
	req.Resource = GVR{Group: group, Version: version, Resource: plural}
	if !keepNameNS {
		req.Name = metaString(obj, "name")
		req.Namespace = metaString(obj, "namespace")
		if req.Namespace == "" && namespaced {
			req.Namespace = "default"
		}
	}
	switch req.Operation {
	case "DELETE":
		req.Object, req.OldObject = nil, obj
	case "UPDATE":
		req.Object, req.OldObject = obj, old
	default:
		req.Object = obj
	}
	return req
}

// ObjectOf is v (an object as the engine returns it: json.Number numbers)
// as this package holds objects (integers int64, other numbers float64);
// nil for nil.
func ObjectOf(v interface{}) (map[string]interface{}, error) {
	if v == nil {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return DecodeObject(b)
}
