package git

import (
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/nous-dev/nous/sdk"
)

// maxPaths bounds the "paths" field; "files" still counts every file.
const maxPaths = 100

// record turns a commit into a Record without stats. Its ID is the full
// sha: short ids collide in large repositories. Fields["short_id"] is the
// shortest unique prefix for display.
func (s *Source) record(c *object.Commit, ref, short string) sdk.Record {
	sha := c.Hash.String()
	title, body, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	rec := sdk.Record{
		ID:     sha,
		Source: s.cfg.Source,
		Kind:   sdk.KindCommit,
		Title:  strings.TrimSpace(title),
		Body:   strings.TrimSpace(body),
		Author: c.Author.Name,
		Time:   c.Committer.When,
		Fields: map[string]any{
			"sha":          sha,
			"short_id":     short,
			"ref":          ref,
			"author_email": c.Author.Email,
			"authored":     c.Author.When,
			"committer":    c.Committer.Name,
			"parents":      int64(len(c.ParentHashes)),
		},
	}
	if s.commitURL != nil {
		rec.URL = s.commitURL(sha)
	}
	return rec
}

// setStats stores a commit's file stats in rec's fields.
func setStats(rec *sdk.Record, fs []fileStat) {
	var additions, deletions int64
	paths := make([]string, 0, min(len(fs), maxPaths))
	for _, f := range fs {
		additions += int64(f.additions)
		deletions += int64(f.deletions)
		if len(paths) < maxPaths {
			paths = append(paths, f.name)
		}
	}
	rec.Fields["files"] = int64(len(fs))
	rec.Fields["additions"] = additions
	rec.Fields["deletions"] = deletions
	rec.Fields["paths"] = paths
}
