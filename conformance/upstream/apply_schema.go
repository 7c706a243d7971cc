//go:build !versions_oracle

package upstream

import (
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	generatedopenapi "k8s.io/apiextensions-apiserver/pkg/generated/openapi"
	"k8s.io/apimachinery/pkg/util/managedfields"
	apiopenapi "k8s.io/apiserver/pkg/endpoints/openapi"
	"k8s.io/kube-openapi/pkg/builder3"
	"k8s.io/kube-openapi/pkg/common"
	"k8s.io/kube-openapi/pkg/schemaconv"
	"k8s.io/kube-openapi/pkg/spec3"
	"k8s.io/kube-openapi/pkg/validation/spec"
	smdschema "sigs.k8s.io/structured-merge-diff/v6/schema"
)

// staticOpenAPISpec mirrors the StaticOpenAPISpec kube-apiserver hands the
// CRD handler (GenericAPIServer.getOpenAPIModels: the OpenAPI v3
// definitions of the resources installed with the apiextensions group,
// built by builder3.BuildOpenAPIDefinitionsForResources from the generated
// definitions).
var staticOpenAPISpec = sync.OnceValues(func() (map[string]*spec.Schema, error) {
	// genericapiserver.DefaultOpenAPIV3Config, the parts the definitions read.
	namer := apiopenapi.NewDefinitionNamer(scheme)
	cfg := &common.OpenAPIV3Config{
		GetDefinitionName: namer.GetDefinitionName,
		GetDefinitions:    generatedopenapi.GetOpenAPIDefinitions,
	}
	cfg.Definitions = generatedopenapi.GetOpenAPIDefinitions(func(name string) spec.Ref {
		defName, _ := cfg.GetDefinitionName(name)
		return spec.MustCreateRef("#/components/schemas/" + common.EscapeJsonPointer(defName))
	})
	return builder3.BuildOpenAPIDefinitionsForResources(cfg,
		apiextensionsv1.CustomResourceDefinition{}.OpenAPIModelName())
})

// openAPIModelsForApply mirrors customresource_handler.go's
// buildOpenAPIModelsForApply: the static spec merged with the OpenAPI v3
// spec the builder publishes for every version of the CRD.
func openAPIModelsForApply(crd *apiextensionsv1.CustomResourceDefinition) (map[string]*spec.Schema, error) {
	static, err := staticOpenAPISpec()
	if err != nil {
		return nil, err
	}
	staticSpecV3 := &spec3.OpenAPI{
		Version:    "3.0.0",
		Info:       &spec.Info{InfoProps: spec.InfoProps{Title: "Kubernetes CRD Swagger", Version: "v0.1.0"}},
		Components: &spec3.Components{Schemas: static},
	}
	specs := []*spec3.OpenAPI{staticSpecV3}
	for _, v := range crd.Spec.Versions {
		s, err := builder.BuildOpenAPIV3(crd, v.Name, builder.Options{})
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	merged, err := builder.MergeSpecsV3(specs...)
	if err != nil {
		return nil, err
	}
	return merged.Components.Schemas, nil
}

// TypeConverter builds the CRD's type converter as getOrCreateServingInfoFor
// does.
func TypeConverter(crd *apiextensionsv1.CustomResourceDefinition) (managedfields.TypeConverter, error) {
	models, err := openAPIModelsForApply(crd)
	if err != nil {
		return nil, err
	}
	if len(models) == 0 {
		return managedfields.NewDeducedTypeConverter(), nil
	}
	return managedfields.NewTypeConverter(models, crd.Spec.PreserveUnknownFields)
}

// SMDSchema is the structured-merge-diff schema the type converter parses
// with (schemaconv.ToSchemaFromOpenAPI of the same models), for the
// schema-level differential.
func SMDSchema(crd *apiextensionsv1.CustomResourceDefinition) (*smdschema.Schema, map[string]*spec.Schema, error) {
	models, err := openAPIModelsForApply(crd)
	if err != nil {
		return nil, nil, err
	}
	s, err := schemaconv.ToSchemaFromOpenAPI(models, crd.Spec.PreserveUnknownFields)
	return s, models, err
}
