package upstream

import (
	"fmt"
	"sort"

	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer/json"
	"k8s.io/apimachinery/pkg/runtime/serializer/versioning"
	"sigs.k8s.io/yaml"
)

// StoredRead is a stored object read at one version (engine.StoredRead's
// oracle).
type StoredRead struct {
	Object map[string]interface{}
	// Pruned lists the paths the read drops (decoder, then converter), sorted.
	Pruned []string
	// Error is the decoding or conversion error.
	Error string
}

// schemaCoercingConverter mirrors customresource_handler.go's
// schemaCoercingConverter; it records the paths its coercion prunes.
type schemaCoercingConverter struct {
	delegate runtime.ObjectConvertor
	c        coercer
	pruned   *[]string
}

func (v schemaCoercingConverter) Convert(in, out, context interface{}) error {
	if err := v.delegate.Convert(in, out, context); err != nil {
		return err
	}
	if u, ok := out.(*unstructured.Unstructured); ok {
		paths, err := v.c.apply(u)
		if err != nil {
			return err
		}
		*v.pruned = append(*v.pruned, paths...)
	}
	return nil
}

func (v schemaCoercingConverter) ConvertToVersion(in runtime.Object, gv runtime.GroupVersioner) (runtime.Object, error) {
	out, err := v.delegate.ConvertToVersion(in, gv)
	if err != nil {
		return nil, err
	}
	if u, ok := out.(*unstructured.Unstructured); ok {
		paths, err := v.c.apply(u)
		if err != nil {
			return nil, err
		}
		*v.pruned = append(*v.pruned, paths...)
	}
	return out, nil
}

func (v schemaCoercingConverter) ConvertFieldLabel(gvk schema.GroupVersionKind, label, value string) (string, string, error) {
	return v.delegate.ConvertFieldLabel(gvk, label, value)
}

// ReadStored reads a stored object at version as the storage codec of
// crdConversionRESTOptionsGetter does (schemaCoercingDecoder with
// dropInvalidMetadata and repairGeneration, the unstructuredDefaulter, the
// CRD's converter from conversion.NewCRConverterFactory wrapped in the
// schemaCoercingConverter, decoding into an object of the endpoint's kind).
func (s *Served) ReadStored(data []byte, version string) (*StoredRead, error) {
	srv := s.srv
	js := data
	if !looksLikeJSON(js) {
		var err error
		if js, err = yaml.YAMLToJSON(data); err != nil {
			return &StoredRead{Error: fmt.Sprintf("error converting YAML to JSON: %v", err)}, nil
		}
	}
	var pruned []string
	codec, into, err := srv.storageCodec(version, &pruned)
	if err != nil {
		return nil, err
	}
	obj, _, err := codec.Decode(js, nil, into)
	if err != nil {
		return &StoredRead{Error: err.Error(), Pruned: []string{}}, nil
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("stored object decoded as %T", obj)
	}
	if pruned == nil {
		pruned = []string{}
	}
	sort.Strings(pruned)
	return &StoredRead{Object: u.Object, Pruned: dedupSorted(pruned)}, nil
}

func dedupSorted(s []string) []string {
	out := s[:0]
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// storageCodec builds the storage codec of version's endpoint
// (crdConversionRESTOptionsGetter.GetRESTOptions) and the object the store
// decodes into; pruned collects the paths its coercions prune.
func (srv *server) storageCodec(version string, pruned *[]string) (runtime.Decoder, *unstructured.Unstructured, error) {
	factory, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		return nil, nil, err
	}
	safe, _, err := factory.NewConverter(srv.crd)
	if err != nil {
		return nil, nil, err
	}
	dc := srv.coercer()
	dc.dropInvalidMetadata = true
	dc.repairGeneration = true
	typer := crdserverscheme.NewUnstructuredObjectTyper()
	ser := json.NewSerializerWithOptions(json.DefaultMetaFactory, unstructuredCreator{}, typer, json.SerializerOptions{})
	target := schema.GroupVersion{Group: srv.gk.Group, Version: version}
	storage := schema.GroupVersion{Group: srv.gk.Group, Version: srv.storageVersion}
	codec := versioning.NewCodec(ser,
		coercingDecoder{delegate: ser, c: dc, pruned: pruned},
		schemaCoercingConverter{delegate: safe, c: srv.coercer(), pruned: pruned},
		unstructuredCreator{}, typer,
		unstructuredDefaulter{delegate: scheme, structuralSchemas: srv.structuralSchemas, structuralSchemaGK: srv.gk},
		storage, target, "crdRESTOptions")
	into := &unstructured.Unstructured{}
	into.SetGroupVersionKind(target.WithKind(srv.gk.Kind))
	return codec, into, nil
}
