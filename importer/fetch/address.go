package fetch

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// Address classes. A class is "" for a public address.
const (
	classLoopback    = "loopback"
	classPrivate     = "private"
	classLinkLocal   = "link-local"
	classMulticast   = "multicast"
	classUnspecified = "unspecified"
	classBroadcast   = "broadcast"
	classReserved    = "reserved"
)

type rangeRule struct {
	prefix netip.Prefix
	class  string
}

// v4Rules lists the IPv4 ranges that are not the public internet. Order
// matters only for the more specific broadcast entry inside 240/4.
var v4Rules = []rangeRule{
	{netip.MustParsePrefix("0.0.0.0/8"), classUnspecified}, // "this network"; 0.0.0.0 reaches localhost on Linux
	{netip.MustParsePrefix("10.0.0.0/8"), classPrivate},
	{netip.MustParsePrefix("100.64.0.0/10"), classPrivate}, // carrier-grade NAT
	{netip.MustParsePrefix("127.0.0.0/8"), classLoopback},
	{netip.MustParsePrefix("169.254.0.0/16"), classLinkLocal}, // cloud metadata lives here
	{netip.MustParsePrefix("172.16.0.0/12"), classPrivate},
	{netip.MustParsePrefix("192.0.0.0/24"), classReserved},
	{netip.MustParsePrefix("192.0.2.0/24"), classReserved},
	{netip.MustParsePrefix("192.88.99.0/24"), classReserved},
	{netip.MustParsePrefix("192.168.0.0/16"), classPrivate},
	{netip.MustParsePrefix("198.18.0.0/15"), classPrivate}, // benchmarking, used inside networks
	{netip.MustParsePrefix("198.51.100.0/24"), classReserved},
	{netip.MustParsePrefix("203.0.113.0/24"), classReserved},
	{netip.MustParsePrefix("224.0.0.0/4"), classMulticast},
	{netip.MustParsePrefix("255.255.255.255/32"), classBroadcast},
	{netip.MustParsePrefix("240.0.0.0/4"), classReserved},
}

var v6Rules = []rangeRule{
	{netip.MustParsePrefix("::/128"), classUnspecified},
	{netip.MustParsePrefix("::1/128"), classLoopback},
	{netip.MustParsePrefix("::/96"), classReserved}, // deprecated IPv4-compatible addresses
	{netip.MustParsePrefix("64:ff9b:1::/48"), classPrivate},
	{netip.MustParsePrefix("100::/64"), classReserved},
	{netip.MustParsePrefix("2001:db8::/32"), classReserved},
	{netip.MustParsePrefix("3fff::/20"), classReserved},
	{netip.MustParsePrefix("fc00::/7"), classPrivate},
	{netip.MustParsePrefix("fe80::/10"), classLinkLocal},
	{netip.MustParsePrefix("fec0::/10"), classPrivate}, // deprecated site-local
	{netip.MustParsePrefix("ff00::/8"), classMulticast},
}

var (
	nat64Prefix   = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour     = netip.MustParsePrefix("2002::/16")
	teredo        = netip.MustParsePrefix("2001::/32")
	globalUnicast = netip.MustParsePrefix("2000::/3")
)

// classify returns the class of a non-public address, or "" for a public one.
// IPv6 forms that carry an IPv4 address (mapped, NAT64, 6to4, Teredo) are
// judged by the IPv4 address they lead to, since that is what a translator
// or relay would connect to.
func classify(ip netip.Addr) string {
	ip = ip.WithZone("")
	if !ip.IsValid() {
		return classReserved
	}
	if ip.Is4In6() {
		return classify(ip.Unmap())
	}
	if ip.Is4() {
		for _, r := range v4Rules {
			if r.prefix.Contains(ip) {
				return r.class
			}
		}
		return ""
	}
	b := ip.As16()
	switch {
	case nat64Prefix.Contains(ip):
		return classify(netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]}))
	case sixToFour.Contains(ip):
		return classify(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]}))
	case teredo.Contains(ip):
		// The Teredo server sits in bits 32-63; the client address is
		// stored inverted in the last 32 bits.
		if c := classify(netip.AddrFrom4([4]byte{b[4], b[5], b[6], b[7]})); c != "" {
			return c
		}
		if c := classify(netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})); c != "" {
			return c
		}
	}
	for _, r := range v6Rules {
		if r.prefix.Contains(ip) {
			return r.class
		}
	}
	if !globalUnicast.Contains(ip) {
		// Everything outside 2000::/3 (apart from the translated forms
		// above) is unallocated or special-purpose.
		return classReserved
	}
	return ""
}

// privateOK reports whether AllowPrivate opens the class. Link-local stays
// closed even then: it holds cloud metadata services and home networks do not
// serve recipes from it.
func privateOK(class string) bool {
	return class == classLoopback || class == classPrivate
}

// policy is the address rule set shared by CheckURL, the dialer and the
// browser's proxy.
type policy struct {
	allowPrivate bool
	deny         func(netip.Addr) bool
	// allow exempts addresses from the built-in rules. Only this package's
	// tests set it, so that a loopback test server can stand in for a
	// public site while AllowPrivate stays false.
	allow func(netip.Addr) bool
}

func (p policy) check(ip netip.Addr) error {
	ip = ip.WithZone("")
	plain := ip
	if plain.Is4In6() {
		plain = plain.Unmap()
	}
	if c := classify(ip); c != "" && !(p.allowPrivate && privateOK(c)) && (p.allow == nil || !p.allow(plain)) {
		return forbidden("", ip, c)
	}
	if p.deny != nil && (p.deny(ip) || p.deny(plain)) {
		return forbidden("", ip, "")
	}
	return nil
}

// forbidden builds the forbidden_address error; prefix names the host that
// led to ip ("example.com resolves to "), class is "" for a policy refusal.
func forbidden(prefix string, ip netip.Addr, class string) *Error {
	var msg string
	switch {
	case class == "":
		msg = fmt.Sprintf("%s%s, which the address policy refuses", prefix, ip)
	case prefix == "":
		msg = fmt.Sprintf("%s is a %s address; imports may only reach public internet addresses", ip, class)
	default:
		msg = fmt.Sprintf("%s%s, a %s address; imports may only reach public internet addresses", prefix, ip, class)
	}
	return &Error{Code: CodeForbiddenAddress, Message: msg, addr: ip, class: class}
}

// hostIDNA maps a host the way browsers do before they look at it (UTS #46),
// so that full-width digits and ideographic full stops become ASCII and
// "１２７。０。０。１" is seen as the IPv4 address it is. Underscores are allowed
// because real hostnames have them.
var hostIDNA = idna.New(idna.MapForLookup(), idna.Transitional(false), idna.StrictDomainName(false))

// parseHost reads a URL host (without brackets or port) the way a browser's
// URL parser does: an IPv6 literal, an IPv4 address in any spelling that
// inet_aton and the WHATWG URL standard accept (2130706433, 0x7f.1,
// 017700000001, 127.1), or else a domain name. It returns either a valid ip
// or the ASCII domain name.
func parseHost(host string) (name string, ip netip.Addr, err error) {
	host = strings.TrimPrefix(strings.TrimSuffix(host, "]"), "[")
	if host == "" {
		return "", netip.Addr{}, invalidURL("the address has no host name")
	}
	if strings.Contains(host, ":") {
		ip, err := netip.ParseAddr(host)
		if err != nil {
			return "", netip.Addr{}, invalidURL("%q is not a valid IPv6 address", host)
		}
		return "", ip, nil
	}
	ascii, err := hostIDNA.ToASCII(host)
	if err != nil {
		if !isASCII(host) {
			return "", netip.Addr{}, invalidURL("%q is not a valid host name", host)
		}
		// A label IDNA dislikes (a leading hyphen, say) still resolves
		// in DNS, so keep the name; the numeric check below still runs.
		ascii = strings.ToLower(host)
	}
	ip, isIP, ok := parseIPv4(ascii)
	if !ok {
		return "", netip.Addr{}, invalidURL("%q is not a valid IP address", host)
	}
	if isIP {
		return "", ip, nil
	}
	if strings.ContainsAny(ascii, " /\\%@#?:[]<>^|\x00") {
		return "", netip.Addr{}, invalidURL("%q is not a valid host name", host)
	}
	return ascii, netip.Addr{}, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// parseIPv4 implements the WHATWG "IPv4 parser": a host whose last label is a
// number is an IPv4 address (isIP) and must parse as one (ok), with each part
// decimal, octal (leading 0) or hex (0x), and the last part filling the
// remaining bytes. Anything else is a domain (isIP false, ok true).
func parseIPv4(host string) (ip netip.Addr, isIP, ok bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 1 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1] // one trailing dot is allowed
	}
	if !endsInNumber(parts[len(parts)-1]) {
		return netip.Addr{}, false, true
	}
	if len(parts) > 4 {
		return netip.Addr{}, true, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, good := parseIPv4Number(p)
		if !good {
			return netip.Addr{}, true, false
		}
		nums[i] = n
	}
	for _, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, true, false
		}
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, true, false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		v += n << (8 * (3 - i))
	}
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true, true
}

// endsInNumber is the WHATWG test: all digits, or 0x followed by hex digits.
func endsInNumber(s string) bool {
	if s == "" {
		return false
	}
	if allIn(s, "0123456789") {
		return true
	}
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		return allIn(s[2:], "0123456789abcdefABCDEF")
	}
	return false
}

func allIn(s, set string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune(set, rune(s[i])) {
			return false
		}
	}
	return true
}

// parseIPv4Number reads one part. Values above 2^32 are reported as
// 2^32 (still too large for any position) instead of overflowing.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, s = 16, s[2:]
	case len(s) >= 2 && s[0] == '0':
		base, s = 8, s[1:]
	}
	var v uint64
	for i := 0; i < len(s); i++ {
		d := hexDigit(s[i])
		if d >= base {
			return 0, false
		}
		if v <= 1<<32 {
			v = v*base + d
		}
		if v > 1<<32 {
			v = 1 << 32
		}
	}
	return v, true
}

// hexDigit returns the value of a hex digit, or 255 for anything else.
func hexDigit(c byte) uint64 {
	switch {
	case c >= '0' && c <= '9':
		return uint64(c - '0')
	case c >= 'a' && c <= 'f':
		return uint64(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return uint64(c-'A') + 10
	}
	return 255
}

// CheckURL validates a user-supplied address before anything is fetched:
// http or https only, a host that parses, and no literal IP (in any spelling)
// or "localhost" name that leads to a forbidden address. Names are resolved
// only when a connection is made, where the dialer checks the real address
// again; this is the early, friendly check.
func CheckURL(rawURL string, allowPrivate bool) error {
	_, err := checkURL(rawURL, policy{allowPrivate: allowPrivate})
	return err
}

func checkURL(rawURL string, p policy) (*url.URL, error) {
	rawURL = strings.TrimSpace(rawURL)
	if rawURL == "" {
		return nil, invalidURL("the address is empty")
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, invalidURL("%q is not a web address", rawURL)
	}
	if err := checkParsedURL(u, p); err != nil {
		return nil, err
	}
	return u, nil
}

func checkParsedURL(u *url.URL, p policy) error {
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
	case "":
		return invalidURL("the address must start with http:// or https://")
	default:
		return invalidURL("only http and https addresses can be fetched, not %s", u.Scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return invalidURL("the address has no host name")
	}
	if port := u.Port(); port != "" {
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 {
			return invalidURL("the port %q is not valid", port)
		}
	}
	name, ip, err := parseHost(u.Hostname())
	if err != nil {
		return err
	}
	if ip.IsValid() {
		return p.check(ip)
	}
	// Browsers send every *.localhost name to loopback without asking DNS
	// (RFC 6761), so refuse them by name too.
	trimmed := strings.TrimSuffix(name, ".")
	if (trimmed == "localhost" || strings.HasSuffix(trimmed, ".localhost")) && !p.allowPrivate {
		return &Error{Code: CodeForbiddenAddress,
			Message: fmt.Sprintf("%s is a loopback name; imports may only reach public internet addresses", name)}
	}
	return nil
}
