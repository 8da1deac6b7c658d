package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nous-dev/nous/engine/session"
	"github.com/spf13/cobra"
)

// sessionsCommand is `nous sessions`: list, show and remove the
// conversations `nous ask --session` keeps.
func (a *app) sessionsCommand() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "sessions [list | show ID | rm ID...]",
		Short: "List, show or remove the conversations of nous ask --session",
		Long: `Sessions are kept in $` + session.EnvDir + `, else the user's state directory
($XDG_STATE_HOME/nous/sessions or ~/.local/state/nous/sessions; on macOS
~/Library/Application Support/nous/sessions; on Windows
%LocalAppData%\nous\sessions). Without arguments, list them, the most
recently used first; a file there that is not a readable session is named
on stderr and skipped (the listing still exits 0).`,
		Example: `  nous sessions
  nous sessions show t1
  nous sessions rm t1`,
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := session.Dir(a.lookupEnv)
			if err != nil {
				return usageError("sessions: %v", err)
			}
			store := session.NewStore(dir, session.Bounds{})
			verb := "list"
			if len(args) > 0 {
				verb, args = args[0], args[1:]
			}
			for _, id := range args {
				if err := session.CheckID(id); err != nil {
					return usageError("sessions %s: %v", verb, err)
				}
			}
			switch {
			case verb == "list" && len(args) == 0:
				return a.listSessions(store, asJSON)
			case verb == "show" && len(args) == 1:
				return a.showSession(store, args[0], asJSON)
			case verb == "rm" && len(args) > 0:
				for _, id := range args {
					if err := store.Remove(id); err != nil {
						return &exitError{Code: exitFindings, Err: err}
					}
				}
				return nil
			}
			return usageError("sessions: want list, show ID or rm ID..., got %q", strings.Join(append([]string{verb}, args...), " "))
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func (a *app) listSessions(store *session.Store, asJSON bool) error {
	list, unreadable, err := store.List()
	if err != nil {
		return &exitError{Code: exitFindings, Err: err}
	}
	for _, err := range unreadable {
		fmt.Fprintf(a.stderr, "nous: sessions: skipped %v\n", err)
	}
	if asJSON {
		return writeJSON(a.stdout, list)
	}
	if len(list) == 0 {
		fmt.Fprintf(a.stdout, "no sessions in %s\n", store.Dir())
		return nil
	}
	w := tabwriter.NewWriter(terminalSafe{a.stdout}, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tTURNS\tUPDATED\tLAST QUESTION")
	for _, in := range list {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\n", in.ID, in.Turns, in.Updated.UTC().Format(time.RFC3339), oneLine(in.Last))
	}
	return w.Flush()
}

func (a *app) showSession(store *session.Store, id string, asJSON bool) error {
	sess, err := store.Read(id)
	if err != nil {
		return &exitError{Code: exitFindings, Err: err}
	}
	if asJSON {
		return writeJSON(a.stdout, sess)
	}
	w := terminalSafe{a.stdout}
	for i, t := range sess.Turns {
		fmt.Fprintf(w, "── turn %d, %s, %s (%s)\n", sess.Number(i), t.At.UTC().Format(time.RFC3339), t.Status, t.Interaction)
		fmt.Fprintf(w, "Q: %s\n\n%s\n\n", oneLine(t.Query), strings.TrimSpace(t.Answer))
	}
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
