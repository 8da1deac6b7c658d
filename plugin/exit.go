package plugin

// exitStatus is how the process ended on its own ("exit status 7"), or ""
// while it runs or when it was killed by a signal (as the host's own kill
// does). It reads the state the runner's Wait recorded, after Exited says so.
func (p *process) exitStatus() string {
	if !p.client.Exited() {
		return ""
	}
	return p.run.exitStatus()
}
