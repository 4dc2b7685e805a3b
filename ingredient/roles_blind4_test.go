package ingredient

import (
	"testing"
)

// TestMatchRulesOfTheThirdBlindBatch covers the rules added with the third blind batch of the
// labeled set (d<NN>_*.json), each on a small recipe written for it.
func TestMatchRulesOfTheThirdBlindBatch(t *testing.T) {
	t.Parallel()
	checkMatchCases(t, []matchCase{
		{
			name: "a French seasoning verb prepares the chicken, which is then browned",
			r: recipe([]string{"1 poulet découpé en 8 morceaux", "3 c. à s. d'huile d'olive", "sel"},
				"Salez les morceaux de poulet.", "Faites chauffer l'huile et faites dorer le poulet."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 1}, {2, 0}},
		},
		{
			name: "putting back is a use in French",
			r: recipe([]string{"4 cuisses de poulet", "2 oignons", "20 cl de vin blanc"},
				"Faites dorer le poulet puis retirez-le.", "Faites fondre les oignons.",
				"Versez le vin. Remettez le poulet dans la cocotte, couvrez et laissez mijoter 40 minutes."),
			want: [][2]int{{0, 0}, {0, 2}, {1, 1}, {2, 2}},
		},
		{
			name: "what cooks in the same oil is not the oil again",
			r: recipe([]string{"100 ml de aceite de oliva", "10 dientes de ajo", "1 kg de pollo"},
				"Calentamos el aceite y doramos los ajos. Los retiramos.", "En el mismo aceite freímos el pollo."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
		{
			name: "of two cinnamon lines, the one removed is the one in the pot",
			r: recipe([]string{"1 l de leche", "1 rama de canela", "150 g de azúcar", "canela molida para decorar"},
				"Ponemos la leche en una olla con la rama de canela y la llevamos a ebullición.",
				"Cuando el arroz esté tierno, retiramos la canela de la olla.",
				"Añadimos el azúcar y lo cocemos durante 5 minutos.",
				"Servimos en los cuencos y espolvoreamos con canela molida."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 2}, {3, 3}},
		},
		{
			name: "a German infinitive ending a clause is the verb, not the Hackfleisch",
			r: recipe([]string{"500 g gemischtes Hackfleisch", "4 Sardellenfilets", "1 Ei"},
				"Die Sardellen fein hacken.", "Hackfleisch, Ei und Sardellen in einer Schüssel zu einem Teig verkneten."),
			want: [][2]int{{0, 1}, {1, 0}, {1, 1}, {2, 1}},
		},
		{
			name: "'et que' goes on with a French doneness condition",
			r: recipe([]string{"1 kg de pommes de terre", "50 cl de lait"},
				"Épluchez les pommes de terre et coupez-les en rondelles.",
				"Versez le lait dans le plat et enfournez, jusqu'à ce que le dessus soit bien doré et que les pommes de terre soient fondantes."),
			want: [][2]int{{0, 0}, {1, 1}},
		},
		{
			name: "a food's adjective after a French mixture's noun names the mixture; egg whites are the eggs",
			r: recipe([]string{"200 g de chocolat noir", "6 œufs"},
				"Faites fondre le chocolat.", "Montez les blancs en neige.",
				"Incorporez les blancs au mélange chocolaté."),
			want: [][2]int{{0, 0}, {1, 1}, {1, 2}},
		},
		{
			name: "the white of the leek is not the egg's",
			r: recipe([]string{"1 poireau", "2 œufs"},
				"Ajoutez le blanc de poireau dans la cocotte.", "Battez les jaunes avec un peu de sauce."),
			want: [][2]int{{0, 0}, {1, 1}},
		},
		{
			name: "a Norwegian name is cut at 'i', and 'kjøttet' is the fårekjøtt",
			r: recipe([]string{"1,5 kg fårekjøtt i skiver", "1 hodekål"},
				"Legg et lag med kjøttet i bunnen av en gryte og et lag med kål over."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "a curry powder is not the curry served",
			r: recipe([]string{"2 el kerriepoeder", "300 g rijst", "1 ui"},
				"Fruit de ui met het kerriepoeder.", "Kook de rijst.", "Serveer de kerrie met de rijst."),
			want: [][2]int{{0, 0}, {1, 1}, {1, 2}, {2, 0}},
		},
		{
			name: "a preposition is no part of a compound food",
			r: recipe([]string{"2 ts bukkehornkløver", "1 ts salt"},
				"Dryss over litt salt og la det stå.", "Fres bukkehornkløver i en panne til det dufter."),
			want: [][2]int{{0, 1}, {1, 0}},
		},
		{
			name: "'fino a' opens an Italian condition, it is not the fine salt",
			r: recipe([]string{"500 g di farina", "10 g di sale", "1 cucchiaino di sale fino"},
				"Versate la farina nella ciotola, poi unite il sale e lavorate l'impasto fino a ottenere un impasto liscio ed elastico."),
			want: [][2]int{{0, 0}, {1, 0}},
		},
		{
			name: "a Spanish onion chopped, then softened in the butter",
			r: recipe([]string{"100 g de mantequilla", "1/2 cebolla"},
				"Picamos la cebolla muy fina con un cuchillo bien afilado.",
				"Derretimos la mantequilla en una sartén y pochamos la cebolla a fuego lento durante 10 minutos."),
			want: [][2]int{{0, 1}, {1, 0}, {1, 1}},
		},
		{
			name: "an Italian step names the olive oil by its food and qualifier",
			r: recipe([]string{"olio di semi per friggere", "2 cucchiai di olio extravergine d'oliva", "1 spicchio d'aglio"},
				"Fate soffriggere l'aglio nell'olio extravergine per due minuti.",
				"Friggete le fette nell'olio di semi ben caldo e scolatele su carta assorbente."),
			want: [][2]int{{0, 1}, {1, 0}, {2, 0}},
		},
		{
			name: "a Norwegian recipe read as Norwegian knows its measures: the sugar for the top",
			r: recipe([]string{"150 g sukker", "2 egg", "1 ts kanel", "2 ss sukker (til pynt)"},
				"Pisk 150 g sukker og egg hvitt og luftig.", "Bland kanel og sukker og dryss over kaken.",
				"Stek kaken til en pinne kommer tørr ut."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}, {3, 1}},
		},
	})
}
