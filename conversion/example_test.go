package conversion_test

import (
	"fmt"
	"os"

	"github.com/crdlab/crdlab/conversion"
)

func read(name string) []byte {
	data, err := os.ReadFile("../examples/conversion/" + name)
	if err != nil {
		panic(err)
	}
	return data
}

// A webhook's recorded answer, checked offline: the API server accepts it,
// drops the field the v1 schema does not know, and the converted object
// validates at v1.
func ExampleCheck() {
	res, err := conversion.Check(read("crd.yaml"), read("request.json"), read("response.json"), conversion.Options{})
	if err != nil {
		fmt.Println("cannot check:", err)
		return
	}
	fmt.Println("accepted:", res.Accepted)
	o := res.Objects[0]
	fmt.Println(o.Namespace+"/"+o.Name, "pruned:", o.Pruned)
	fmt.Println("metadata.resourceVersion restored:", o.Object["metadata"].(map[string]interface{})["resourceVersion"])
	fmt.Println("errors at v1:", o.Errors)
	// Output:
	// accepted: true
	// default/nightly pruned: [spec.cron]
	// metadata.resourceVersion restored: 4821
	// errors at v1: []
}

// An answer the API server rejects: the webhook returned the object at the
// version it was sent.
func ExampleCheck_rejected() {
	res, err := conversion.Check(read("crd.yaml"), read("request.json"), read("response-wrong-version.json"), conversion.Options{})
	if err != nil {
		fmt.Println("cannot check:", err)
		return
	}
	fmt.Println(res.Error)
	// Output:
	// conversion webhook for stable.example.com/v1beta1, Kind=CronTab returned invalid object at index 0: invalid groupVersion (expected stable.example.com/v1, received stable.example.com/v1beta1)
}
