package ingredient

import "testing"

func TestZZ2(t *testing.T) {
	t.Log(Match([]string{"2 small zucchini", "1 white onion", "1 garlic clove", "2 tbsp olive oil"}, []string{"Preheat the oven to 395F.", "Wash the zucchinis (alternatively you can also peel them) and chop the ends.", "Dice thinly the onion and mince the garlic clove.", "In a pan add the olive oil and minced garlic and chopped onion."}))
	t.Log(Match([]string{"2 small zucchini"}, []string{"Wash the zucchinis and chop the ends."}))
}
