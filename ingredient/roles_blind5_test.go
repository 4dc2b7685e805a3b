package ingredient

import (
	"testing"
)

// TestMatchRulesOfTheFourthBlindBatch covers the rules added with the fourth blind batch of the
// labeled set (e<NN>_*.json), each on a small recipe written for it.
func TestMatchRulesOfTheFourthBlindBatch(t *testing.T) {
	t.Parallel()
	sectioned := func(sections map[string][]string, order []string, steps ...string) Recipe {
		var r Recipe
		for _, name := range order {
			for _, l := range sections[name] {
				r.Ingredients = append(r.Ingredients, Line{Text: l, Section: name})
			}
		}
		for _, s := range steps {
			r.Steps = append(r.Steps, Line{Text: s})
		}
		return r
	}
	checkMatchCases(t, []matchCase{
		{
			name: "everything else is the lines not used yet, less those excepted",
			r: recipe([]string{"2 avocados", "1 tomato, diced", "1/4 red onion, minced", "1 lime, juiced", "1/2 tsp salt", "tortilla chips"},
				"Mash the avocados in a bowl.", "Fold in everything else except the chips.", "Serve with the chips."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 1}, {3, 1}, {4, 1}, {5, 2}},
		},
		{
			name: "except in Polish",
			r: recipe([]string{"2 jajka", "1 szklanka mąki", "1 łyżka masła"},
				"Wszystkie składniki oprócz masła zmiksować na gładkie ciasto.", "Smażyć naleśniki na maśle."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
		{
			name: "a kosher salt and a salt: the step's part picks, and the spices tell the part",
			r: sectioned(map[string][]string{
				"For the marinade": {"2 tbsp olive oil", "1 tsp kosher salt", "1 tsp ground cumin", "1 tsp smoked paprika"},
				"For the sauce":    {"1 cup yogurt", "1/4 tsp salt", "1 tbsp olive oil"},
			}, []string{"For the marinade", "For the sauce"},
				"Whisk the olive oil, all the spices and the salt.", "Stir the yogurt, olive oil and salt together for the sauce."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 1}, {5, 1}, {6, 1}},
		},
		{
			name: "a measure taken of the oil is a portion of the divided line",
			r: recipe([]string{"2 tbsp vegetable oil, divided", "2 eggs, beaten", "1 teaspoon sesame oil"},
				"Heat 1 teaspoon of the oil and scramble the eggs.", "Heat the rest of the oil.", "Drizzle with the sesame oil."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {2, 2}},
		},
		{
			name: "a qualifier narrows a kind: the frozen vegetables",
			r: recipe([]string{"1 cup frozen peas and carrots", "2 green onions, sliced", "1 clove garlic"},
				"Fry the green onions and garlic.", "Add the frozen vegetables."),
			want: [][2]int{{0, 1}, {1, 0}, {2, 0}},
		},
		{
			name: "the meat of one line is put back; cloves are no seasoning verb",
			r: recipe([]string{"500 g runderlappen", "4 kruidnagels", "zout en peper"},
				"Bak het vlees bruin en haal het uit de pan.", "Doe het vlees terug in de pan en voeg de kruidnagels toe."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}},
		},
		{
			name: "a Dutch diminutive of a compound's last part, and salted water",
			r: recipe([]string{"300 g sperziebonen", "1 kg aardappelen", "zout"},
				"Kook de boontjes beetgaar met een snufje zout.", "Kook de aardappelen in water met zout."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 0}, {2, 1}},
		},
		{
			name: "Portuguese plurals in -ões",
			r:    recipe([]string{"1 pimentão vermelho", "1 cebola"}, "Pique a cebola.", "Junte os pimentões."),
			want: [][2]int{{0, 1}, {1, 0}},
		},
		{
			name: "the rest of the vegetables after half of each",
			r: recipe([]string{"1 cebola em rodelas", "2 tomates em rodelas", "500 g de peixe"},
				"Faça uma camada com metade da cebola e metade dos tomates.", "Coloque o peixe e cubra com o restante dos legumes."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 1}},
		},
		{
			name: "a portion word before a list takes a portion of each",
			r: recipe([]string{"1 onion, sliced", "2 bell peppers, sliced", "1 lb cod fillets"},
				"Layer half of the onion and peppers in the pan.", "Add the cod and cover with the rest of the vegetables."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 1}},
		},
		{
			name: "a purée of potatoes is a mixture",
			r: recipe([]string{"500 g de batatas", "400 g de bacalhau"},
				"Coza as batatas e passe-as pelo passe-vite.", "Junte o bacalhau ao puré de batata."),
			want: [][2]int{{0, 0}, {1, 1}},
		},
		{
			name: "a plural pronoun does not stand for one food in the singular",
			r:    recipe([]string{"óleo para fritar"}, "Aqueça o óleo e frite os bolinhos.", "Escorra-os sobre papel absorvente."),
			want: [][2]int{{0, 0}},
		},
		{
			name: "a verb with its own object pronoun, or in a doneness cue, does not govern the oil",
			r: recipe([]string{"aceite de oliva para freír", "1 kg de patatas"},
				"Fríe las patatas en el aceite durante 10 minutos y sácalas.",
				"Sube el aceite a 190 °C y vuelve a freírlas hasta que estén doradas."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "picante is no compound of pica",
			r:    recipe([]string{"1 cebolla", "1 cucharadita de pimentón picante"}, "Pica la cebolla.", "Añade el pimentón."),
			want: [][2]int{{0, 0}, {1, 1}},
		},
		{
			name: "German: a verb after ohne is not the clause's, würfeln is no Speckwürfel",
			r: recipe([]string{"1 kg Kartoffeln", "100 g Speckwürfel", "1 Zwiebel", "2 EL Butterschmalz"},
				"Kartoffeln in Scheiben schneiden, Zwiebel würfeln.",
				"Butterschmalz erhitzen, Kartoffeln darin ohne Rühren goldbraun braten. Speck und Zwiebel zugeben."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}, {2, 0}, {2, 1}, {3, 1}},
		},
		{
			name: "Swedish: a knob of butter is a portion, varva layers",
			r: recipe([]string{"1 kg potatis", "2 lökar", "2 msk smör"},
				"Smörj formen med lite av smöret.", "Fräs löken i en klick smör.", "Varva potatis och lök i formen."),
			want: [][2]int{{0, 2}, {1, 1}, {1, 2}, {2, 0}, {2, 1}},
		},
		{
			name: "German egg whites beaten with the sugar",
			r: recipe([]string{"4 Eier", "2 EL Zucker", "125 g Mehl"},
				"Die Eier trennen und die Eigelbe mit dem Mehl verrühren.", "Das Eiweiß mit dem Zucker steif schlagen."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}, {2, 0}},
		},
		{
			name: "bread is the kind of a baguette",
			r:    recipe([]string{"8 tranches de baguette", "100 g de gruyère râpé"}, "Faites griller les tranches de pain.", "Couvrez de gruyère."),
			want: [][2]int{{0, 0}, {1, 1}},
		},
		{
			name: "a participle after an article names its line: i pelati",
			r:    recipe([]string{"400 g di pomodori pelati", "1 peperoncino"}, "Aggiungete il peperoncino e i pelati."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "a compound's first part read as the line's word: kaasblokjes",
			r:    recipe([]string{"100 g kaas in blokjes", "200 g spekjes"}, "Bak de spekjes.", "Strooi de kaasblokjes erover."),
			want: [][2]int{{0, 1}, {1, 0}},
		},
		{
			name: "a compound of the word for vegetables is a collective",
			r: recipe([]string{"3 gulrøtter", "1/2 kålrot"},
				"Skrell gulrøttene og kålroten og skjær dem i terninger.", "Ha rotgrønnsakene i gryta."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}},
		},
		{
			name: "a bread named by its kind",
			r:    recipe([]string{"4 pita breads"}, "Warm the pitas in the oven."),
			want: [][2]int{{0, 0}},
		},
	})
}

// TestDetectLanguageOfShortSteps checks that a recipe too short for the cue words is told by the
// verbs of its steps.
func TestDetectLanguageOfShortSteps(t *testing.T) {
	t.Parallel()
	for step, want := range map[string]string{
		"Misture tudo e sirva.":                "pt",
		"Mezclar todo y servir.":               "es",
		"Alles mischen und servieren.":         "de",
		"Add the flour and stir until smooth.": "en",
	} {
		if got := detectLanguage([]normText{normalizeText(step, true)}, nil); got != want {
			t.Errorf("%q: language %s, want %s", step, got, want)
		}
	}
}
