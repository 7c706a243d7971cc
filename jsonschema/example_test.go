package jsonschema_test

import (
	"fmt"

	"github.com/crdlab/crdlab/engine/crd"
	"github.com/crdlab/crdlab/jsonschema"
)

func ExampleConvert() {
	def, err := crd.DecodeOne([]byte(`
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [image]
            properties:
              image: {type: string}
              replicas: {type: integer, minimum: 1, default: 1}
              port: {x-kubernetes-int-or-string: true}
            x-kubernetes-validations:
            - rule: self.replicas <= 10
`), "crontab.yaml")
	if err != nil {
		panic(err)
	}
	schemas, err := jsonschema.Convert(def, jsonschema.Options{Draft: jsonschema.Draft2020, Strict: true})
	if err != nil {
		panic(err)
	}
	for _, s := range schemas {
		fmt.Println(s.FileName(jsonschema.LayoutKubeconform), s.FileName(jsonschema.LayoutCatalog))
		spec := s.Document["properties"].(map[string]interface{})["spec"].(map[string]interface{})
		props := spec["properties"].(map[string]interface{})
		fmt.Println("port type:", props["port"].(map[string]interface{})["type"])
		fmt.Println("additionalProperties:", spec["additionalProperties"])
		for _, u := range s.Unexpressed {
			fmt.Println("not expressed:", u)
		}
	}
	// Output:
	// crontab_v1.json stable.example.com/crontab_v1.json
	// port type: [integer string null]
	// additionalProperties: false
	// not expressed: .spec: CEL rule "self.replicas <= 10"
	// not expressed: <root>: ratcheting: on update, unchanged invalid values are accepted
	// not expressed: metadata: ObjectMeta rules (name, generateName, namespace, labels, annotations, finalizers syntax)
}
