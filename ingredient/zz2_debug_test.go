package ingredient

import "testing"

func TestZZ2(t *testing.T) {
	t.Log(Match([]string{"1 1/2 pounds firm fleshed fish such as mahi, cod, halibut", "1 cup flour"}, []string{"Dredge the fish in the flour.", "Heat a large skillet over medium-high heat and add a good layer of oil. Once it’s shimmering, add the fish and cook for a minute or two on each side."}))
}
