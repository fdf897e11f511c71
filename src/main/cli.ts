import { main } from './main.js'

/** `npm start`: the service, configured by the environment. */
void main(process.env)
