package git

// first is the handle Configure opened: calls one at a time always use it.
func (s *Source) first() *handle {
	s.pool.mu.Lock()
	defer s.pool.mu.Unlock()
	return s.pool.all[0]
}

// firstCall is a call on the first handle, for tests of a call's parts.
func (s *Source) firstCall() *call { return &call{Source: s, repo: s.first().repo} }
