package fetch

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"time"
)

// newDialer returns the net.Dialer every outbound connection goes through.
// Its Control hook runs after name resolution, on the very address the
// socket is about to connect to, so neither DNS tricks (rebinding, a name
// that resolves to 127.0.0.1) nor redirects can reach a forbidden address.
func newDialer(p policy, resolver *net.Resolver) *net.Dialer {
	return &net.Dialer{
		Timeout:   10 * time.Second,
		KeepAlive: 30 * time.Second,
		Resolver:  resolver,
		Control: func(network, address string, _ syscall.RawConn) error {
			if !strings.HasPrefix(network, "tcp") {
				return &Error{Code: CodeForbiddenAddress, Message: "only TCP connections are made"}
			}
			ap, err := netip.ParseAddrPort(address)
			if err != nil {
				// Fail closed: an address we cannot read is not one we
				// can vouch for.
				return &Error{Code: CodeForbiddenAddress,
					Message: fmt.Sprintf("cannot check the address %q", address), Err: err}
			}
			return p.check(ap.Addr())
		},
	}
}

// DialContext connects like net.Dialer.DialContext under the client's
// address rules. The browser's proxy dials through it, so Chrome obeys the
// same rules as the plain fetcher.
func (c *Client) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return nil, &Error{Code: CodeForbiddenAddress, Message: "only TCP connections are made"}
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, invalidURL("%q is not a host and port", address)
	}
	// Read the host as a browser would, so that "0x7f.1" or "2130706433"
	// is refused here with a clear message instead of reaching a system
	// resolver that may treat it as 127.0.0.1 (inet_aton does).
	name, ip, err := parseHost(host)
	if err != nil {
		return nil, err
	}
	if ip.IsValid() {
		if err := c.policy.check(ip); err != nil {
			return nil, err
		}
		address = net.JoinHostPort(ip.String(), port)
	} else {
		address = net.JoinHostPort(name, port)
	}
	conn, err := c.dialer.DialContext(ctx, network, address)
	if err != nil {
		if fe := AsError(err); fe != nil {
			// Say which name led to the address; the bare IP alone
			// puzzles a user who typed a host name.
			if name != "" && fe.Code == CodeForbiddenAddress && fe.addr.IsValid() {
				return nil, forbidden(name+" resolves to ", fe.addr, fe.class)
			}
			return nil, fe
		}
		return nil, err
	}
	return conn, nil
}
