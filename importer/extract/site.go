package extract

import "strings"

// Site extractors, by host (also listed in SITES.md):
//
//   - dagelijksekost.vrt.be: the JSON-LD lists only the first steps of the
//     method; the page has all of them, in named groups (site_dagelijksekost.go).
//   - picnic.app: no structured data; the recipe is in the Next.js payload
//     of the page, not in its HTML; the general script-data reader gives
//     its lines, the extractor its title, description and time
//     (site_picnic.go).
//   - xiachufang.com: the JSON-LD name is the dish category, not the title,
//     and ingredient amounts are glued to the names (site_xiachufang.go).
//
// Problems that many sites share are handled by the general extractors
// instead of per site: ingredient names without amounts in the JSON-LD
// (amounts read from the page), amounts written after the name ("milk,
// 500 ml"), one-line ingredient lists, a tag list published as the
// ingredients, step numbers written into the text, steps glued without
// spaces, doubled parentheses from WP Recipe Maker, text encoded twice.

// siteExtractor corrects what the general sources read from one site (or
// one family of sites), for sites whose structured data is missing or
// wrong. fix runs after the merge and may change any field; it runs under
// recover, and a site extractor should guard each field with try so that a
// changed page loses one field, not the recipe.
type siteExtractor struct {
	hosts []string // without "www."; a host also matches its subdomains
	why   string
	fix   func(p *page, r *Recipe)
}

// siteExtractors is the registry; each entry lives in its own site_*.go
// file and registers itself with registerSite.
var siteExtractors []*siteExtractor

func registerSite(s *siteExtractor) *siteExtractor {
	siteExtractors = append(siteExtractors, s)
	return s
}

// siteFor returns the extractor for host, or nil.
func siteFor(host string) *siteExtractor {
	host = strings.TrimPrefix(strings.ToLower(host), "www.")
	for _, s := range siteExtractors {
		for _, h := range s.hosts {
			if host == h || strings.HasSuffix(host, "."+h) {
				return s
			}
		}
	}
	return nil
}
