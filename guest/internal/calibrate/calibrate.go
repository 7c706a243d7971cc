// Package calibrate is a yardstick for crdlab's WebAssembly numbers: a
// small, engine-free workload made of the same kind of Go code the engine
// runs per request (sigs.k8s.io/yaml's YAML-to-JSON conversion, then
// encoding/json decoding and encoding of the result), timed natively and
// inside a wasm host. The ratio it gives is what Go code of this kind pays
// for running as WebAssembly in that host, independent of crdlab's engine:
// the floor under crdlab's own per-validation ratio (benchmarks/README.md,
// "WebAssembly").
package calibrate

import (
	"encoding/json"

	"sigs.k8s.io/yaml"
)

// Document is the workload's input: a CronTab-sized custom resource.
const Document = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-new-cron-object
  labels: {app: cron, tier: backend}
spec:
  cronSpec: "* * * * */5"
  image: my-awesome-cron-image
  replicas: 3
  list:
  - name: a
    value: "1"
  - name: b
    value: "2"
`

// Run does the workload n times and returns the length of the last JSON
// encoding (so that nothing can be optimised away), or -1 on error.
func Run(n int) int {
	out := -1
	for i := 0; i < n; i++ {
		js, err := yaml.YAMLToJSON([]byte(Document))
		if err != nil {
			return -1
		}
		var v interface{}
		if err := json.Unmarshal(js, &v); err != nil {
			return -1
		}
		b, err := json.Marshal(v)
		if err != nil {
			return -1
		}
		out = len(b)
	}
	return out
}
