// benchstat for `make bench` (bench.mk: go -C benchmarks/tools tool
// benchstat), and kubeconform and kubectl-validate for `make bench-repo`
// (the 50,000-object comparison, benchmarks/README.md), pinned here rather
// than in benchmarks/go.mod so that their dependencies (newer
// golang.org/x/net, sys, text, other k8s.io versions) do not move the
// versions the benchmarks build upstream's packages with.
module github.com/crdlab/crdlab/benchmarks/tools

go 1.26.0

tool (
	github.com/yannh/kubeconform/cmd/kubeconform
	golang.org/x/perf/cmd/benchstat
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2 // indirect
	github.com/yannh/kubeconform v0.8.0 // indirect
	go.yaml.in/yaml/v2 v2.4.4 // indirect
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da // indirect
	golang.org/x/text v0.42.0 // indirect
	k8s.io/kube-openapi v0.0.0-20260603220949-865597e52e25 // indirect
	k8s.io/utils v0.0.0-20260210185600-b8788abfbbc2 // indirect
	sigs.k8s.io/yaml v1.6.0 // indirect
)
