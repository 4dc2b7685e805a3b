package ingredient

import (
	"testing"
)

// TestMatchRulesOfTheSeventhBlindBatch covers the rules added with the seventh blind batch of the
// labeled set (h<NN>_*.json, thirty recipes in nine languages other than English), each on a small
// recipe written for it.
func TestMatchRulesOfTheSeventhBlindBatch(t *testing.T) {
	t.Parallel()
	checkMatchCases(t, []matchCase{
		{
			name: "a six-letter compound is named by its short tail",
			r:    recipe([]string{"2 EL Rapsöl", "1 Zwiebel"}, "Das Öl erhitzen und die Zwiebel darin dünsten."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "a step opening with its part belongs to it, over an earlier heading",
			r: sectionedRecipe([][2]any{{"Für den Teig", []string{"200 g Mehl", "100 g Zucker"}}, {"Für die Streusel", []string{"100 g Mehl", "50 g Zucker"}}},
				"Für den Teig:", "Mehl und Zucker verrühren.", "Für die Streusel Mehl und Zucker verkneten."),
			want: [][2]int{{0, 1}, {1, 1}, {2, 2}, {3, 2}},
		},
		{
			name: "a tin greased with a food, the verb closing the clause, takes the line given to the tin",
			r: recipe([]string{"200 g Butter", "Butter für die Form", "3 Eier"},
				"Eine Form mit Butter einfetten.", "Butter und Eier verrühren."),
			want: [][2]int{{0, 1}, {1, 0}, {2, 1}},
		},
		{
			name: "a Spanish singular keeps its final n",
			r:    recipe([]string{"2 calabacines", "1 limón"}, "Corta el calabacín.", "Exprime los limones."),
			want: [][2]int{{0, 0}, {1, 1}},
		},
		{
			name: "Czech verbs in the first person plural, and kuře as the meat",
			r: recipe([]string{"1 kuře", "2 cibule", "sůl"},
				"Kuře rozporcujeme a osolíme.", "Cibuli nakrájíme a osmahneme.", "Přidáme kousky kuřete.", "Maso vyjmeme, omáčku dochutíme solí a maso vrátíme zpět."),
			want: [][2]int{{0, 0}, {0, 2}, {0, 3}, {1, 1}, {2, 0}, {2, 3}},
		},
		{
			name: "Polish verbs in the infinitive",
			r: recipe([]string{"2 marchewki", "1 l bulionu"},
				"Marchewki obrać i pokroić.", "Bulion zagotować i dodać marchewki."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}},
		},
		{
			name: "a vegetable section's name means its vegetables, not its oil or sesame",
			r: sectionedRecipe([][2]any{{"Für das Fleisch", []string{"500 g Rindfleisch"}}, {"Für das Gemüse", []string{"1 Brokkoli", "1 Zucchini", "2 EL Öl", "1 EL Sesam"}}},
				"Brokkoli und Zucchini klein schneiden.", "Das Öl erhitzen und das Fleisch anbraten.", "Das Gemüse dazugeben und braten.", "Mit Sesam bestreuen."),
			want: [][2]int{{0, 1}, {1, 0}, {1, 2}, {2, 0}, {2, 2}, {3, 1}, {4, 3}},
		},
		{
			name: "a mixture compound is the mixture, unless its food was last worked on alone",
			r: recipe([]string{"1 kg Kartoffeln", "1 Ei", "4 Scheiben Speck", "2 Zwiebeln"},
				"Kartoffeln reiben und in einem Tuch ausdrücken.", "Die Kartoffelmasse mit dem Ei verrühren.",
				"Zwiebeln und Speck anbraten.", "Die Zwiebelmasse auf dem Teig verteilen."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}, {2, 2}, {3, 2}},
		},
		{
			name: "a salted qualifier inside a food's name salts nothing, and salting names no food",
			r: recipe([]string{"100 g di ricotta salata", "sale", "320 g di pasta"},
				"Cuocete la pasta in abbondante acqua salata e scolatela al dente.", "Servite la pasta con una grattugiata di ricotta salata."),
			want: [][2]int{{0, 1}, {1, 0}, {2, 0}, {2, 1}},
		},
		{
			name: "a word after en is a noun, not the verb (tiras is no tirar)",
			r:    recipe([]string{"2 cebollas", "1 pimiento"}, "Pela y corta en tiras finas las cebollas y el pimiento."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "a food packed in oil is that food, not the oil",
			r: recipe([]string{"1 lata de atún en aceite", "2 cucharadas de aceite de oliva", "1 cebolla"},
				"Pela y pica la cebolla y póchala en una sartén con un poco de aceite durante 10 minutos.", "Añade el atún escurrido y mezcla bien."),
			want: [][2]int{{0, 1}, {1, 0}, {2, 0}},
		},
		{
			name: "a word after the food that one same-name line carries tells the lines apart",
			r: recipe([]string{"2 huevos cocidos", "1 huevo batido"},
				"Pica los huevos cocidos.", "Pinta la empanada con el huevo batido."),
			want: [][2]int{{0, 0}, {1, 1}},
		},
		{
			name: "a part word names the line listed as that part, not the whole eggs",
			r: recipe([]string{"1 œuf", "3 blancs d'œufs", "100 g de sucre"},
				"Fouettez l'œuf avec le sucre.", "Montez les blancs en neige."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 0}},
		},
		{
			name: "a product named first is no vegetable",
			r: recipe([]string{"1 carota", "1 cipolla", "300 g di passata di pomodoro"},
				"Tritate la carota e la cipolla.", "Fate appassire il trito di verdure.", "Aggiungete la passata."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 2}},
		},
		{
			name: "Dutch dep prepares the meat, so browning it after is a link",
			r: recipe([]string{"1 kg runderlappen", "peper en zout", "50 g boter"},
				"Dep het vlees droog en bestrooi het met peper en zout.", "Verhit de boter en bak het vlees bruin."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {2, 1}},
		},
		{
			name: "faire revenir cooks; a food naming its pan is not in hand",
			r: recipe([]string{"2 cuisses de canard", "2 échalotes"},
				"Faites dorer les cuisses de canard. Réservez-les.", "Épluchez les échalotes.", "Dans la poêle du canard, faites revenir les échalotes."),
			want: [][2]int{{0, 0}, {1, 1}, {1, 2}},
		},
		{
			name: "German zu den names the base a food is added to",
			r: recipe([]string{"8 Brötchen", "300 ml Milch", "3 Eier"},
				"Die Brötchen würfeln und mit der Milch übergießen.", "Die Eier zu den Brötchen geben."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
	})
}
