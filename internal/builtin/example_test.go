package builtin_test

import (
	"fmt"

	"github.com/crdlab/crdlab/internal/builtin"
	"github.com/crdlab/crdlab/internal/kubeversion"
)

// SchemaFor gives a built-in kind's OpenAPI schema at a release, as a
// structural schema, with the Go type of each definition.
func ExampleSchemaFor() {
	s, err := builtin.SchemaFor(kubeversion.Of(37), "apps", "v1", "Deployment")
	if err != nil {
		fmt.Println(err)
		return
	}
	spec := s.Structural.Properties["spec"]
	replicas := spec.Properties["replicas"]
	containers := spec.Properties["template"].Properties["spec"].Properties["containers"]
	fmt.Println(s.Definition, s.GoTypes[s.Definition])
	fmt.Println("required:", spec.ValueValidation.Required)
	fmt.Println("replicas:", replicas.Type, replicas.ValueValidation.Format)
	fmt.Println("containers:", *containers.XListType, containers.XListMapKeys, s.Patches["spec.template.spec.containers"])

	_, err = builtin.SchemaFor(kubeversion.Of(37), "extensions", "v1beta1", "Ingress")
	fmt.Println(err)
	// Output:
	// io.k8s.api.apps.v1.Deployment v1.Deployment
	// required: [selector template]
	// replicas: integer int32
	// containers: map [name] {name merge}
	// Kubernetes 1.37 serves no extensions/v1beta1 Ingress
}

// A kind without native validation is decoded by its schema, as the API
// server's typed decoder decodes it.
func ExampleServe_decodedBySchema() {
	o, err := builtin.Serve(builtin.Request{
		Body:    []byte(`{"apiVersion":"batch/v1","kind":"CronJob","metadata":{"name":"nightly"},"spec":{"startingDeadlineSeconds":"3"}}`),
		Release: kubeversion.Of(37),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(o.Modelled, o.SchemaChecked)
	fmt.Println(o.DecodeError)
	// Output:
	// false true
	// CronJob in version "v1" cannot be handled as a CronJob: json: cannot unmarshal string into Go struct field CronJobSpec.spec.startingDeadlineSeconds of type int64
}
