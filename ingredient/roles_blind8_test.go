package ingredient

import (
	"testing"
)

// TestMatchRulesOfTheEighthBlindBatch covers the rules added with the eighth blind batch of the
// labeled set (i<NN>_*.json, twelve English recipes and eighteen in eleven other languages), each on
// a small recipe written for it.
func TestMatchRulesOfTheEighthBlindBatch(t *testing.T) {
	t.Parallel()
	checkMatchCases(t, []matchCase{
		{
			name: "greasing a tin without naming the fat takes the line given to the tin",
			r: recipe([]string{"200 g Mehl", "100 g Butter", "Butter für die Form"},
				"Eine Springform (26 cm) fetten.", "Mehl und Butter verkneten."),
			want: [][2]int{{0, 1}, {1, 1}, {2, 0}},
		},
		{
			name: "a dusting line is not the tin's, and a verb that names its food uses that food",
			r: recipe([]string{"1 ei", "200 g roomboter, plus extra voor de vorm", "poedersuiker om te bestuiven"},
				"Druk het deeg in de vorm en bestrijk met het ei.", "Bestuif met poedersuiker."),
			want: [][2]int{{0, 0}, {2, 1}},
		},
		{
			name: "the Scandinavian word for butter greases when an article follows it",
			r: recipe([]string{"50 g smør", "smør til formen", "200 g makaroni"},
				"Smelt smøret i en kjele.", "Smør en ildfast form og legg makaronien i formen."),
			want: [][2]int{{0, 0}, {1, 1}, {2, 1}},
		},
		{
			name: "salted water in another language is no water line",
			r: recipe([]string{"1 kg kartofler", "1 tsk salt", "2 dl vand"},
				"Kog kartoflerne i letsaltet vand.", "Hæld vandet på panden."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
		{
			name: "a tool among the ingredients is no food",
			r: recipe([]string{"600 g kippendijen", "8 satéprikkers"},
				"Week de satéprikkers in water.", "Rijg de kip aan de prikkers en gril ze gaar."),
			want: [][2]int{{0, 1}},
		},
		{
			name: "a tool of wood is no food, a food on skewers is food",
			r: recipe([]string{"12 chicken skewers", "8 wooden skewers", "4 Hähnchenspieße", "4 Holzspieße"},
				"Brush the chicken skewers with oil and soak the wooden skewers.", "Die Hähnchenspieße würzen."),
			want: [][2]int{{0, 0}, {2, 1}},
		},
		{
			name: "Czech and Polish k softened to c, and a cheese by its kind",
			r: recipe([]string{"4 plátky eidamu", "50 g hladké mouky", "100 g strouhanky"},
				"Plátky sýra obalíme v mouce a ve strouhance.", "Sýr smažíme dozlatova."),
			want: [][2]int{{0, 0}, {0, 1}, {1, 0}, {2, 0}},
		},
		{
			name: "a compound of a food and its cut is called by its food; a three-letter mixture noun ends a compound",
			r: recipe([]string{"600 g laxfilé", "1 knippe dill", "2 dl crème fraiche"},
				"Lägg laxen i en form.", "Hacka dillen och rör ihop den med crème fraiche.", "Servera laxen med dillsås."),
			want: [][2]int{{0, 0}, {0, 2}, {1, 1}, {2, 1}},
		},
		{
			name: "a cooking step means the line not kept for serving",
			r: recipe([]string{"2 cucharadas de aceite de oliva", "1 puerro", "Picatostes y un chorrito de aceite para servir"},
				"Calentar el aceite y pochar el puerro.", "Servir con picatostes y un chorrito de aceite."),
			want: [][2]int{{0, 0}, {1, 0}, {2, 1}},
		},
		{
			name: "a stock named first is not the food it is made of",
			r: recipe([]string{"4 muslos de pollo", "900 ml de caldo de pollo", "300 g de arroz"},
				"Doramos el pollo y lo reservamos.", "Añadimos el arroz y el caldo.", "Volvemos a poner el pollo en la cazuela."),
			want: [][2]int{{0, 0}, {0, 2}, {1, 1}, {2, 1}},
		},
		{
			name: "the bacon fat is not the bacon; push handles what is in the pan",
			r: recipe([]string{"6 slices bacon", "2 chicken breasts", "1 pound potatoes"},
				"Roast the potatoes.", "Cook the bacon until crisp.", "Cook the chicken in the bacon fat.", "Push the potatoes aside and add the chicken."),
			want: [][2]int{{0, 1}, {1, 2}, {1, 3}, {2, 0}},
		},
		{
			name: "Italian trito is a mixture",
			r: recipe([]string{"2 cipolle", "800 g di manzo"},
				"Tritate le cipolle.", "Rosolate la carne.", "Aggiungete il trito di cipolle e lasciatelo appassire."),
			want: [][2]int{{0, 0}, {1, 1}},
		},
	})
}
