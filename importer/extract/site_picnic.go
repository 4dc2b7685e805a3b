package extract

// picnic.app (the Picnic grocery app's recipe pages) has no structured
// data: the page is a Next.js app whose recipe arrives as a JSON payload in
// self.__next_f.push(...) scripts. The general reading of such data
// (appdata.go) gives its ingredients and steps; the payload's name,
// description and preparation time, which it does not read, come from here.
var _ = registerSite(&siteExtractor{
	hosts: []string{"picnic.app"},
	why:   "no structured data; the recipe is in the Next.js payload, not in the HTML",
	fix: func(p *page, r *Recipe) {
		rec := p.appRecipe()
		if rec == nil {
			return
		}
		try(func() {
			if t := firstText(get(rec, "name"), nil); t != "" {
				r.Title = t
			}
		})
		try(func() {
			if d := firstText(get(rec, "description"), nil); d != "" {
				r.Description = d
			}
		})
		try(func() {
			if t := parseMinutes(get(rec, "preparationTimeInMinutes")); t != nil {
				r.TotalMinutes = t
			}
		})
	},
})
