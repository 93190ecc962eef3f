terraform import keel_instance.orders 8e3d1f27-6c4b-4a9e-b0d5-3f2a7c1e9b46
