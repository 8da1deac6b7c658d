package github

import (
	"context"
	"strings"

	gh "github.com/google/go-github/v75/github"

	"github.com/nous-dev/nous/sdk"
)

// fetchCommits lists a branch's commits (the default branch without ref),
// newest first; path, author, since and until go to the API.
func (r *fetchRun) fetchCommits(ctx context.Context, sc scope) error {
	owner, name, _ := splitRepo(sc.repo)
	q := r.q
	opt := gh.CommitsListOptions{SHA: q.ref, Path: q.path, Author: sc.author, Since: q.since, Until: q.until}
	list := func(ctx context.Context, lo gh.ListOptions) ([]*gh.RepositoryCommit, *gh.Response, error) {
		o := opt
		o.ListOptions = lo
		return r.client.Repositories.ListCommits(ctx, owner, name, &o)
	}
	return paginate(ctx, r, sc.repo, list, func(c *gh.RepositoryCommit) error {
		if c == nil || c.GetSHA() == "" {
			return nil
		}
		return r.out(commitRecord(c, sc.repo, q.ref))
	})
}

func commitRecord(c *gh.RepositoryCommit, repo, ref string) sdk.Record {
	git := c.GetCommit()
	message := git.GetMessage()
	title, _, _ := strings.Cut(message, "\n")
	fields := map[string]any{
		"repo":    repo,
		"sha":     c.GetSHA(),
		"parents": int64(len(c.Parents)),
	}
	for key, v := range map[string]string{"ref": ref, "login": c.GetAuthor().GetLogin(), "author_email": git.GetAuthor().GetEmail(), "committer": git.GetCommitter().GetName()} {
		if v != "" {
			fields[key] = v
		}
	}
	setTimes(fields, map[string]*gh.Timestamp{"authored_at": git.GetAuthor().Date})
	author := git.GetAuthor().GetName()
	if author == "" {
		author = c.GetAuthor().GetLogin()
	}
	return sdk.Record{
		ID:     c.GetSHA(),
		Source: "github",
		Kind:   sdk.KindCommit,
		Title:  title,
		Body:   message,
		URL:    c.GetHTMLURL(),
		Author: author,
		Time:   recordTime("updated", git.GetAuthor().Date, git.GetCommitter().Date),
		Fields: fields,
	}
}
