module github.com/crdlab/crdlab

go 1.26

require (
	github.com/google/cel-go v0.29.2
	sigs.k8s.io/yaml v1.6.0
)
