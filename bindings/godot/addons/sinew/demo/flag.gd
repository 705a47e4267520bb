extends Node3D
## A flag in gusty wind. Every physics frame the wind of the SinewWorld3D
## changes, and the pole turns a little: the flag's top edge (its pinned grid
## row, riding on the pole through a sinew frame attachment) follows it.
## The world steps after this script (its physics priority is 100).

@onready var world: SinewWorld3D = $SinewWorld3D
@onready var pole: Node3D = $SinewWorld3D/Pole
@onready var flag: SinewCloth3D = $SinewWorld3D/Flag

var t := 0.0


func _physics_process(delta: float) -> void:
	t += delta
	var gust := 6.0 + 3.0 * sin(t * 0.7) + 1.5 * sin(t * 2.3)
	world.wind = Vector3(gust, 0.0, 2.0 * sin(t * 0.4))
	pole.rotation.y = 0.6 * sin(t * 0.25)


func _input(event: InputEvent) -> void:
	# Space: a calm moment for the flag alone (its own wind against the world's).
	if event.is_action_pressed("ui_accept"):
		flag.wind = Vector3(-4.0, 0.0, 0.0) if flag.wind == Vector3.ZERO else Vector3.ZERO
