package fetch

import "net/netip"

// newTestClient is New with addresses exempt from the built-in rules, so a
// loopback server can play a public site while AllowPrivate is false.
func newTestClient(opts Options, exempt ...netip.Addr) *Client {
	c := New(opts)
	c.policy.allow = func(ip netip.Addr) bool {
		for _, e := range exempt {
			if ip == e {
				return true
			}
		}
		return false
	}
	c.dialer = newDialer(c.policy, opts.Resolver)
	return c
}
