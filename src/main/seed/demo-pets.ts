import type { NewPet } from '../../domain/pet.js'

/**
 * PETSTORE_SEED=demo: 36 pets, so that the default page of 20 has a next page; every status, five
 * categories (1 dogs, 2 cats, 3 birds, 4 fish, 5 reptiles), and names beyond ASCII, so that paging,
 * the status filter and Unicode can be shown without creating anything. Kept stable: client tests
 * may rely on these ids and values.
 */
export const DEMO_PETS: ReadonlyArray<NewPet> = [
  { name: 'Rex', categoryId: 1, status: 'available' },
  { name: 'Whiskers', categoryId: 2, status: 'available' },
  { name: 'Tweety', categoryId: 3, status: 'sold' },
  { name: 'Nemo', categoryId: 4, status: 'pending' },
  { name: 'Spike', categoryId: 5, status: 'available' },
  { name: 'Zoë', categoryId: 2, status: 'pending' },
  { name: 'Bello', categoryId: 1, status: 'sold' },
  { name: 'Müsli', categoryId: 2, status: 'available' },
  { name: 'Kiwi', categoryId: 3, status: 'available' },
  { name: 'Bubbles', categoryId: 4, status: 'sold' },
  { name: 'Ñandú', categoryId: 3, status: 'pending' },
  { name: 'Luna', categoryId: 1, status: 'available' },
  { name: 'Пушок', categoryId: 2, status: 'sold' },
  { name: 'Goldie', categoryId: 4, status: 'available' },
  { name: 'Shelly', categoryId: 5, status: 'pending' },
  { name: 'Max', categoryId: 1, status: 'pending' },
  { name: '小虎', categoryId: 2, status: 'available' },
  { name: 'Polly', categoryId: 3, status: 'sold' },
  { name: 'Finn', categoryId: 4, status: 'pending' },
  { name: 'Iggy', categoryId: 5, status: 'sold' },
  { name: 'Buddy', categoryId: 1, status: 'available' },
  { name: 'Chloé', categoryId: 2, status: 'pending' },
  { name: 'Sunny', categoryId: 3, status: 'available' },
  { name: 'Dory', categoryId: 4, status: 'available' },
  { name: 'Rango', categoryId: 5, status: 'available' },
  { name: 'Daisy', categoryId: 1, status: 'sold' },
  { name: 'Mochi 🐾', categoryId: 2, status: 'available' },
  { name: 'Blue', categoryId: 3, status: 'pending' },
  { name: 'Wanda', categoryId: 4, status: 'sold' },
  { name: 'Godzilla', categoryId: 5, status: 'pending' },
  { name: 'Charlie', categoryId: 1, status: 'pending' },
  { name: 'Smokey', categoryId: 2, status: 'sold' },
  { name: 'Rio', categoryId: 3, status: 'available' },
  { name: 'Koi', categoryId: 4, status: 'available' },
  { name: 'Yoshi', categoryId: 5, status: 'sold' },
  { name: 'Coco', categoryId: 1, status: 'available' },
]
