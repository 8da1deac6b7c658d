package git

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/nous-dev/nous/sdk"
)

// shortSHA is the length of Record.ID, GitLab's short_id length.
const shortSHA = 8

// maxPaths bounds the "paths" field; "files" still counts every file.
const maxPaths = 100

// record turns a commit into a Record, with stats when asked for.
func (s *Source) record(ctx context.Context, c *object.Commit, ref string, stats bool) (sdk.Record, error) {
	sha := c.Hash.String()
	title, body, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	rec := sdk.Record{
		ID:     sha[:shortSHA],
		Source: s.cfg.Source,
		Kind:   sdk.KindCommit,
		Title:  strings.TrimSpace(title),
		Body:   strings.TrimSpace(body),
		Author: c.Author.Name,
		Time:   c.Committer.When,
		Fields: map[string]any{
			"sha":          sha,
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
	if !stats {
		return rec, nil
	}
	fs, err := commitStats(ctx, s.repo.Storer, c)
	if err != nil {
		return sdk.Record{}, fmt.Errorf("git: computing stats of %s: %w", sha[:shortSHA], err)
	}
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
	return rec, nil
}
