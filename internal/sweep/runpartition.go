package sweep

import (
	"context"
	"errors"
	"io/fs"
	"strings"

	"github.com/memcompact/memcompact/internal/outcome"
	"github.com/memcompact/memcompact/internal/textfile"
)

// PartitionRequest is one partition check after a sweep: the store as it
// now stands against the artifact the inventory wrote before it.
type PartitionRequest struct {
	Records
	Inventory string // the artifact file; or
	Artifact  []byte // the artifact itself (what the inventory printed), when Inventory is ""
	Strict    bool   // add the decision-grain check
}

// PartitionResult is the partition's report, with notes on the record
// files and the artifact.
type PartitionResult struct {
	Report   *PartitionReport
	Warnings []Warning
}

// Status is the report's: clean when every subject is accounted for,
// defects when one is unaccounted (or a stray), refused when unverifiable.
func (r *PartitionResult) Status() outcome.Status { return outcome.Status(r.Report.ExitCode()) }

// RunPartitionCheck accounts for every subject the artifact enumerated.
// Its usage errors are printed as text even under -Json, as the reference
// script prints them.
func RunPartitionCheck(ctx context.Context, req PartitionRequest) (*PartitionResult, error) {
	asOf, err := req.asOf()
	if err != nil {
		return nil, err
	}
	given, data := req.Inventory, req.Artifact
	byValue := given == "" && data != nil
	if !byValue {
		if err := checkPath(req.Inventory, "enumeration artifact"); err != nil {
			return nil, err
		}
	}
	if err := checkPath(req.Index, "index file"); err != nil {
		return nil, err
	}
	if byValue {
		given = "artifact"
	} else if data, err = req.readArtifact(); err != nil {
		return nil, err
	}
	art, err := ParseArtifact(given, data)
	if err != nil {
		return nil, usage("%s", err.Error())
	}
	p, err := ResolvePaths(req.Index, req.Ledger, req.Slate, req.Archive)
	if err != nil {
		return nil, refused(err)
	}
	res := &PartitionResult{}
	if art.Index != "" && art.Index != p.Index {
		res.Warnings = append(res.Warnings, Warning{File: given, Msg: "the artifact enumerated '" + art.Index + "', not '" + p.Index + "'; check that it belongs to this store"})
	}
	part, err := RunPartition(art, PartitionInput{Paths: p, AsOf: asOf, Strict: req.Strict})
	if err != nil {
		return nil, refused(err, "nothing was decided; make the file readable and run the partition again")
	}
	res.Report = part.Report
	res.Warnings = append(res.Warnings, part.Warnings...)
	return res, nil
}

// checkPath is the reference's check of a required file argument.
func checkPath(path, what string) error {
	if strings.TrimSpace(path) == "" {
		return usage("the %s path is required", what)
	}
	if !IsFile(path) {
		return usage("no %s at '%s'", what, path)
	}
	return nil
}

// readArtifact reads the artifact file.
func (req PartitionRequest) readArtifact() ([]byte, error) {
	af, err := textfile.Read(req.Inventory)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usage("no enumeration artifact at '%s'", req.Inventory)
		}
		return nil, refused(err)
	}
	return []byte(af.Text), nil
}
