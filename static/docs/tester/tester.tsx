import { boot } from '../../tools/boot.tsx'
import { Tester } from './TesterView.tsx'

boot(() => <Tester />)
