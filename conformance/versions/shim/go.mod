module github.com/crdlab/crdlab

go 1.22
