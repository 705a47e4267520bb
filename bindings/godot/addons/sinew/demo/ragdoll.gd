extends Node3D
## An active ragdoll: a stick figure whose Skeleton3D is built here (Godot's
## humanoid bone names, arms down, facing +Z), animated by an AnimationPlayer
## (elbows and knees bending, an arm swinging), and simulated by the
## SinewRagdoll3D below the skeleton: the animation is the motors' target,
## the bones show sinew's pose.
##   Space      limp (strength 0) <-> animated (strength 1)
##   Up / Down  strength +- 0.1
##   Enter      throw the ball at the figure
## Each bone is drawn by a capsule on a BoneAttachment3D.

const BONES := [
	# name, parent, head in the skeleton (metres)
	["Hips", "", Vector3(0, 0.95, 0)],
	["Spine", "Hips", Vector3(0, 1.08, 0)],
	["Chest", "Spine", Vector3(0, 1.25, 0)],
	["UpperChest", "Chest", Vector3(0, 1.36, 0)],
	["Neck", "UpperChest", Vector3(0, 1.45, 0)],
	["Head", "Neck", Vector3(0, 1.55, 0)],
	["LeftUpperArm", "UpperChest", Vector3(0.18, 1.42, 0)],
	["LeftLowerArm", "LeftUpperArm", Vector3(0.18, 1.12, 0)],
	["LeftHand", "LeftLowerArm", Vector3(0.18, 0.86, 0)],
	["RightUpperArm", "UpperChest", Vector3(-0.18, 1.42, 0)],
	["RightLowerArm", "RightUpperArm", Vector3(-0.18, 1.12, 0)],
	["RightHand", "RightLowerArm", Vector3(-0.18, 0.86, 0)],
	["LeftUpperLeg", "Hips", Vector3(0.1, 0.93, 0)],
	["LeftLowerLeg", "LeftUpperLeg", Vector3(0.1, 0.5, 0)],
	["LeftFoot", "LeftLowerLeg", Vector3(0.1, 0.09, 0)],
	["RightUpperLeg", "Hips", Vector3(-0.1, 0.93, 0)],
	["RightLowerLeg", "RightUpperLeg", Vector3(-0.1, 0.5, 0)],
	["RightFoot", "RightLowerLeg", Vector3(-0.1, 0.09, 0)],
]

@onready var skeleton: Skeleton3D = $SinewWorld3D/Figure/Skeleton3D
@onready var ragdoll: SinewRagdoll3D = $SinewWorld3D/Figure/Skeleton3D/SinewRagdoll3D
@onready var player: AnimationPlayer = $SinewWorld3D/Figure/AnimationPlayer
@onready var ball: Node3D = $SinewWorld3D/Ball

var ball_velocity := Vector3.ZERO


func _ready() -> void:
	# The skeleton: rests with identity bases, heads as above.
	var heads := {}
	for b in BONES:
		var i := skeleton.add_bone(b[0])
		heads[b[0]] = b[2]
		var origin: Vector3 = b[2]
		if b[1] != "":
			skeleton.set_bone_parent(i, skeleton.find_bone(b[1]))
			origin -= heads[b[1]]
		skeleton.set_bone_rest(i, Transform3D(Basis.IDENTITY, origin))
	skeleton.reset_bone_poses()
	for b in BONES:
		var attachment := BoneAttachment3D.new()
		attachment.bone_name = b[0]
		var capsule := MeshInstance3D.new()
		var mesh := CapsuleMesh.new()
		mesh.radius = 0.05
		mesh.height = 0.2
		capsule.mesh = mesh
		attachment.add_child(capsule)
		skeleton.add_child(attachment)
	player.add_animation_library("", _library())
	player.play("move")


## Bends about each joint's local X (the bones hang down their parent's -Y):
## a negative angle swings the tail forward (+Z), a positive one back.
func _library() -> AnimationLibrary:
	var anim := Animation.new()
	anim.length = 2.0
	anim.loop_mode = Animation.LOOP_LINEAR
	var keys := {
		"LeftLowerArm": [0.0, -1.4, 0.0],
		"RightUpperArm": [0.0, -1.2, 0.0],
		"LeftUpperLeg": [0.0, -0.8, 0.0],
		"LeftLowerLeg": [0.0, 1.3, 0.0],
	}
	for bone in keys:
		var track := anim.add_track(Animation.TYPE_ROTATION_3D)
		anim.track_set_path(track, NodePath("Skeleton3D:" + bone))
		var angles: Array = keys[bone]
		for k in angles.size():
			anim.rotation_track_insert_key(track, k * 1.0, Quaternion(Vector3.RIGHT, angles[k]))
	var lib := AnimationLibrary.new()
	lib.add_animation("move", anim)
	return lib


func _physics_process(delta: float) -> void:
	if ball_velocity != Vector3.ZERO:
		ball.position += ball_velocity * delta
		if ball.position.z < -3.0:
			ball_velocity = Vector3.ZERO
			ball.position = Vector3(0.0, 1.2, 3.0)


func _input(event: InputEvent) -> void:
	if event.is_action_pressed("ui_accept"):
		ragdoll.strength = 0.0 if ragdoll.strength > 0.0 else 1.0
	elif event.is_action_pressed("ui_up"):
		ragdoll.strength = minf(ragdoll.strength + 0.1, 1.0)
	elif event.is_action_pressed("ui_down"):
		ragdoll.strength = maxf(ragdoll.strength - 0.1, 0.0)
	elif event is InputEventKey and event.pressed and event.keycode == KEY_ENTER:
		ball.position = Vector3(0.0, 1.2, 3.0)
		ball_velocity = Vector3(0.0, 0.0, -6.0)
