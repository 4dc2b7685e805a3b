package fetch

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

func TestParseHost(t *testing.T) {
	t.Parallel()
	tests := []struct {
		host    string
		wantIP  string // "" when a name is expected
		wantErr bool
	}{
		{host: "127.0.0.1", wantIP: "127.0.0.1"},
		{host: "2130706433", wantIP: "127.0.0.1"},
		{host: "0x7f.1", wantIP: "127.0.0.1"},
		{host: "0X7F.0.0.1", wantIP: "127.0.0.1"},
		{host: "017700000001", wantIP: "127.0.0.1"},
		{host: "0177.0.0.01", wantIP: "127.0.0.1"},
		{host: "127.1", wantIP: "127.0.0.1"},
		{host: "127.0.1", wantIP: "127.0.0.1"},
		{host: "0x7f000001", wantIP: "127.0.0.1"},
		{host: "127.0.0.1.", wantIP: "127.0.0.1"},
		{host: "0", wantIP: "0.0.0.0"},
		{host: "0x", wantIP: "0.0.0.0"},
		{host: "10.0x10.1", wantIP: "10.16.0.1"},
		{host: "１２７.０.０.１", wantIP: "127.0.0.1"}, // full-width digits (UTS #46)
		{host: "127。0。0。1", wantIP: "127.0.0.1"}, // ideographic full stops
		{host: "0xA9FEA9FE", wantIP: "169.254.169.254"},
		{host: "::1", wantIP: "::1"},
		{host: "[::1]", wantIP: "::1"},
		{host: "::ffff:127.0.0.1", wantIP: "::ffff:127.0.0.1"},
		{host: "fe80::1%eth0", wantIP: "fe80::1%eth0"},
		{host: "example.com"},
		{host: "EXAMPLE.com"},
		{host: "0x7f.example"}, // last label is not a number: a name
		{host: "1.2.3.4.example"},
		{host: "a_b.example.com"},
		{host: "1.2.3.4.5", wantErr: true},
		{host: "256.0.0.1", wantErr: true},
		{host: "1.2.3.256", wantErr: true},
		{host: "4294967296", wantErr: true},
		{host: "099", wantErr: true},    // 9 is not octal
		{host: "0x1g.1", wantErr: true}, // ends in a number, so 0x1g must be one too
		{host: "1..1", wantErr: true},
		{host: "", wantErr: true},
		{host: "::zz", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			t.Parallel()
			name, ip, err := parseHost(tt.host)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("parseHost(%q) = %q, %v; want an error", tt.host, name, ip)
				}
				return
			}
			if err != nil {
				t.Fatalf("parseHost(%q): %v", tt.host, err)
			}
			if tt.wantIP == "" {
				if ip.IsValid() || name == "" {
					t.Fatalf("parseHost(%q) = %q, %v; want a name", tt.host, name, ip)
				}
				if name != strings.ToLower(name) {
					t.Errorf("name %q not lowercased", name)
				}
				return
			}
			if ip.String() != tt.wantIP {
				t.Fatalf("parseHost(%q) = %v, want %s", tt.host, ip, tt.wantIP)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ip   string
		want string
	}{
		{"8.8.8.8", ""},
		{"1.1.1.1", ""},
		{"93.184.216.34", ""},
		{"127.0.0.1", classLoopback},
		{"127.255.255.254", classLoopback},
		{"10.1.2.3", classPrivate},
		{"172.16.0.1", classPrivate},
		{"172.31.255.255", classPrivate},
		{"172.32.0.1", ""},
		{"192.168.1.1", classPrivate},
		{"100.64.0.1", classPrivate},
		{"100.127.255.255", classPrivate},
		{"100.128.0.1", ""},
		{"169.254.169.254", classLinkLocal},
		{"0.0.0.0", classUnspecified},
		{"0.1.2.3", classUnspecified},
		{"224.0.0.1", classMulticast},
		{"239.255.255.250", classMulticast},
		{"255.255.255.255", classBroadcast},
		{"240.0.0.1", classReserved},
		{"192.0.2.1", classReserved},
		{"198.18.0.1", classPrivate},
		{"::", classUnspecified},
		{"::1", classLoopback},
		{"::ffff:127.0.0.1", classLoopback},
		{"::ffff:7f00:1", classLoopback},
		{"::ffff:10.0.0.1", classPrivate},
		{"::ffff:8.8.8.8", ""},
		{"::127.0.0.1", classReserved},
		{"fe80::1", classLinkLocal},
		{"fe80::1%eth0", classLinkLocal},
		{"fc00::1", classPrivate},
		{"fd12:3456:789a::1", classPrivate},
		{"ff02::1", classMulticast},
		{"64:ff9b::7f00:1", classLoopback},           // NAT64 of 127.0.0.1
		{"64:ff9b::a9fe:a9fe", classLinkLocal},       // NAT64 of 169.254.169.254
		{"64:ff9b::808:808", ""},                     // NAT64 of 8.8.8.8
		{"2002:7f00:1::1", classLoopback},            // 6to4 of 127.0.0.1
		{"2002:c0a8:101::1", classPrivate},           // 6to4 of 192.168.1.1
		{"2002:808:808::1", ""},                      // 6to4 of 8.8.8.8
		{"2001:0:808:808::80ff:fffe", classLoopback}, // Teredo, client 127.0.0.1
		{"2001:db8::1", classReserved},
		{"2606:4700:4700::1111", ""},
		{"2a00:1450:4001::1", ""},
		{"4000::1", classReserved},
	}
	for _, tt := range tests {
		if got := classify(netip.MustParseAddr(tt.ip)); got != tt.want {
			t.Errorf("classify(%s) = %q, want %q", tt.ip, got, tt.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		url          string
		allowPrivate bool
		want         string // error code, "" for accepted
	}{
		{"https://example.com/recipe", false, ""},
		{"http://example.com:8080/x?y=1", false, ""},
		{"  https://example.com/  ", false, ""},
		{"https://bücher.example/", false, ""},
		{"http://8.8.8.8/", false, ""},
		{"http://0x08080808/", false, ""}, // an odd spelling of a public address is fine
		{"http://[2606:4700:4700::1111]/", false, ""},

		{"http://127.0.0.1/", false, CodeForbiddenAddress},
		{"http://127.0.0.1/", true, ""},
		{"http://2130706433/", false, CodeForbiddenAddress},
		{"http://0x7f.1/", false, CodeForbiddenAddress},
		{"http://017700000001/", false, CodeForbiddenAddress},
		{"http://127.1/", false, CodeForbiddenAddress},
		{"http://0177.0.0.1/", false, CodeForbiddenAddress},
		{"http://0x7f.0x0.0x0.0x1/", false, CodeForbiddenAddress},
		{"http://127.0.0.1./", false, CodeForbiddenAddress},
		{"http://%EF%BC%91%EF%BC%92%EF%BC%97.0.0.1/", false, CodeForbiddenAddress}, // "１２７.0.0.1"
		{"http://0/", false, CodeForbiddenAddress},
		{"http://0.0.0.0:8080/", false, CodeForbiddenAddress},
		{"http://0.0.0.0:8080/", true, CodeForbiddenAddress}, // unspecified stays closed
		{"http://10.0.0.1/", false, CodeForbiddenAddress},
		{"http://10.0.0.1/", true, ""},
		{"http://172.16.5.4/", false, CodeForbiddenAddress},
		{"http://192.168.0.1/", false, CodeForbiddenAddress},
		{"http://100.64.1.1/", false, CodeForbiddenAddress},
		{"http://169.254.169.254/latest/meta-data/", false, CodeForbiddenAddress},
		{"http://169.254.169.254/latest/meta-data/", true, CodeForbiddenAddress},
		{"http://2852039166/", true, CodeForbiddenAddress}, // 169.254.169.254 as one number
		{"http://224.0.0.1/", false, CodeForbiddenAddress},
		{"http://255.255.255.255/", false, CodeForbiddenAddress},
		{"http://[::1]/", false, CodeForbiddenAddress},
		{"http://[::1]:8080/", true, ""},
		{"http://[::]/", false, CodeForbiddenAddress},
		{"http://[::ffff:127.0.0.1]/", false, CodeForbiddenAddress},
		{"http://[::ffff:7f00:1]/", false, CodeForbiddenAddress},
		{"http://[::ffff:a9fe:a9fe]/", true, CodeForbiddenAddress},
		{"http://[fe80::1]/", false, CodeForbiddenAddress},
		{"http://[fe80::1%25eth0]/", false, CodeForbiddenAddress},
		{"http://[fc00::1]/", false, CodeForbiddenAddress},
		{"http://[fd00::1]/", true, ""},
		{"http://[ff02::1]/", false, CodeForbiddenAddress},
		{"http://[64:ff9b::7f00:1]/", false, CodeForbiddenAddress},
		{"http://[2002:7f00:1::]/", false, CodeForbiddenAddress},
		{"http://localhost/", false, CodeForbiddenAddress},
		{"http://LOCALHOST:8080/", false, CodeForbiddenAddress},
		{"http://app.localhost/", false, CodeForbiddenAddress},
		{"http://localhost./", false, CodeForbiddenAddress},
		{"http://localhost/", true, ""},
		{"http://user:pass@127.0.0.1/", false, CodeForbiddenAddress},
		{"http://example.com@127.0.0.1/", false, CodeForbiddenAddress},

		{"", false, CodeInvalidURL},
		{"example.com/recipe", false, CodeInvalidURL},
		{"ftp://example.com/", false, CodeInvalidURL},
		{"file:///etc/passwd", false, CodeInvalidURL},
		{"gopher://127.0.0.1:6379/_INFO", false, CodeInvalidURL},
		{"javascript:alert(1)", false, CodeInvalidURL},
		{"data:text/html,hi", false, CodeInvalidURL},
		{"http:example.com", false, CodeInvalidURL},
		{"http:///path", false, CodeInvalidURL},
		{"http://example.com:0/", false, CodeInvalidURL},
		{"http://example.com:99999/", false, CodeInvalidURL},
		{"http://1.2.3.4.5/", false, CodeInvalidURL},
		{"http://256.1.1.1/", false, CodeInvalidURL},
		{"http://[::zz]/", false, CodeInvalidURL},
		{"http://exa mple.com/", false, CodeInvalidURL},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			err := CheckURL(tt.url, tt.allowPrivate)
			got := ""
			if err != nil {
				fe := AsError(err)
				if fe == nil {
					t.Fatalf("CheckURL(%q) = %v, not a *fetch.Error", tt.url, err)
				}
				got = fe.Code
				if fe.Message == "" {
					t.Errorf("empty message")
				}
			}
			if got != tt.want {
				t.Fatalf("CheckURL(%q, %v) = %v (code %q), want code %q", tt.url, tt.allowPrivate, err, got, tt.want)
			}
		})
	}
}

// FuzzCheckURL checks the invariant of the early check: whatever it accepts
// (with AllowPrivate off) has a host that is a name or, read by any of the
// parsers a connection might go through, a public address.
func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{
		"http://example.com/", "http://127.0.0.1/", "http://2130706433/", "http://0x7f.1/",
		"http://017700000001/", "http://127.1/", "http://[::1]/", "http://[::ffff:127.0.0.1]/",
		"http://[fe80::1]/", "https://8.8.8.8:443/", "http://0x08.0x08.0x08.0x08/",
		"http://１２７.０.０.１/", "http://localhost./", "http://[64:ff9b::7f00:1]/",
		"http://10.0.0.1./", "http://0/", "http://0x/", "http://a.0/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if CheckURL(s, false) != nil {
			return
		}
		u, err := url.Parse(strings.TrimSpace(s))
		if err != nil {
			t.Fatalf("accepted %q that url.Parse rejects: %v", s, err)
		}
		if sc := strings.ToLower(u.Scheme); sc != "http" && sc != "https" {
			t.Fatalf("accepted scheme %q in %q", u.Scheme, s)
		}
		host := u.Hostname()
		// Go's own parser, as the transport would see the host.
		if ip, err := netip.ParseAddr(host); err == nil && classify(ip) != "" {
			t.Fatalf("accepted %q: netip reads %v (%s)", s, ip, classify(ip))
		}
		// Our browser-like reading.
		if _, ip, err := parseHost(host); err == nil && ip.IsValid() && classify(ip) != "" {
			t.Fatalf("accepted %q: parseHost reads %v (%s)", s, ip, classify(ip))
		}
		// An independent inet_aton-style reading with strconv.
		if ascii, err := hostIDNA.ToASCII(host); err == nil {
			if ip, ok := referenceInetAton(strings.TrimSuffix(ascii, ".")); ok && classify(ip) != "" {
				t.Fatalf("accepted %q: inet_aton reads %v (%s)", s, ip, classify(ip))
			}
		}
		if n := strings.TrimSuffix(strings.ToLower(host), "."); n == "localhost" || strings.HasSuffix(n, ".localhost") {
			t.Fatalf("accepted loopback name in %q", s)
		}
	})
}

// referenceInetAton is a second, simpler reading of numeric hosts (the
// glibc inet_aton rules) built on strconv, to check parseIPv4 against.
func referenceInetAton(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) == 0 || len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		if p == "" || strings.ContainsAny(p, "_oObB+-") {
			return netip.Addr{}, false
		}
		n, err := strconv.ParseUint(p, 0, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}
